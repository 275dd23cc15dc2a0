import { SCREENS } from './screens';
import { consoleStrings } from './strings';

/** Every area's strings: the shell's and each section's. */
export const ALL_STRINGS = [consoleStrings, ...SCREENS.map((screen) => screen.strings)];
