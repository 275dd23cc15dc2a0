// Typed amounts become minor units as the console parses them: one piece of code, in the contract.
export { formatMinor, parseMajor } from '@mutenet/contract';

/** Money is kept in integer minor units per currency and shown in major units. */
export function toMajor(minor: number, decimals: number): number {
  return minor / 10 ** decimals;
}
