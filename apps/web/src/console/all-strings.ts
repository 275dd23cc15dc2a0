import { SCREENS } from './screens';
import { sessionStrings } from './session/i18n';
import { consoleStrings } from './strings';

/** Every area's strings: the shell's, the sign-in's second factors and each section's. */
export const ALL_STRINGS = [consoleStrings, sessionStrings, ...SCREENS.map((screen) => screen.strings)];
