import fp from 'fastify-plugin';
import { Counter } from 'prom-client';

export interface Jobs {
  /**
   * Runs `work` every `everyMs` while the server listens, never two runs of one job at once in this process. Every
   * instance runs its jobs, so each job's work must be safe to do on several instances at the same time.
   */
  every(name: string, everyMs: number, work: () => Promise<unknown>): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs;
  }
}

export default fp(
  async (fastify) => {
    const timers: NodeJS.Timeout[] = [];
    const pending: Array<() => void> = [];
    let listening = false;
    const registers = [fastify.metrics.registry];
    const runs = new Counter({
      name: 'mutenet_job_runs_total',
      help: 'Runs of each background job.',
      labelNames: ['job'],
      registers,
    });
    const failures = new Counter({
      name: 'mutenet_job_failures_total',
      help: 'Runs of each background job that failed.',
      labelNames: ['job'],
      registers,
    });

    const start = (name: string, everyMs: number, work: () => Promise<unknown>) => {
      let running = false;
      const timer = setInterval(async () => {
        if (running) return;
        running = true;
        runs.inc({ job: name });
        try {
          const result = await work();
          if (typeof result === 'number' && result > 0) fastify.log.info({ job: name, changed: result }, 'job ran');
        } catch (error) {
          failures.inc({ job: name });
          fastify.log.warn({ job: name, err: error }, 'job failed; it runs again at its next turn');
        } finally {
          running = false;
        }
      }, everyMs);
      timer.unref();
      timers.push(timer);
    };

    fastify.decorate('jobs', {
      every(name, everyMs, work) {
        if (listening) start(name, everyMs, work);
        else pending.push(() => start(name, everyMs, work));
      },
    } satisfies Jobs);
    fastify.addHook('onListen', async () => {
      listening = true;
      for (const begin of pending.splice(0)) begin();
    });
    fastify.addHook('preClose', async () => {
      for (const timer of timers) clearInterval(timer);
    });
  },
  { name: 'jobs', dependencies: ['metrics'] },
);
