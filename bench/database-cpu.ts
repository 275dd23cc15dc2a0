/**
 * The CPU time a local PostgreSQL server's processes have used, for the bench's "database CPU" column: on this
 * machine's two cores its backends compete with the app and the load generator, so a case's database work bounds
 * the app's rate as the app's own does.
 */
import fs from 'node:fs';

/**
 * The time on a CPU (microseconds) of each process named `postgres`, by its pid, from its `/proc/PID/schedstat`
 * (nanoseconds, unlike `stat`'s ticks of 10 ms, coarse for a round of 0.75 s). PostgreSQL's processes run one thread
 * each, which is the one `schedstat` reports. Undefined where there is no such file to read (not Linux).
 */
export function postgresCpuMicros(): Map<number, number> | undefined {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const byPid = new Map<number, number>();
  for (const pid of pids) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'latin1') !== 'postgres\n') continue;
      byPid.set(Number(pid), Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'latin1').split(' ', 1)[0]) / 1000);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return byPid;
}

/**
 * The CPU time the processes used between two readings: a process started since counts from nothing; one that ended
 * since is left out, its time gone with it (a worker PostgreSQL started and stopped by itself).
 */
export function cpuMicrosBetween(before: Map<number, number>, after: Map<number, number>): number {
  let micros = 0;
  for (const [pid, used] of after) micros += used - (before.get(pid) ?? 0);
  return micros;
}
