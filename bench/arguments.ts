/** The command line of `npm run bench` and `npm run soak`: `--name value` options and bare `--name` switches. */
const argv = process.argv.slice(2);

export function option(name: string): string | undefined {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : undefined;
}

export const hasSwitch = (name: string): boolean => argv.includes(name);
