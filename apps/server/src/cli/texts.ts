import { type Localized, localized } from '../lib/localized.js';

/** Texts given for some languages: `all` for every one, then the ones given per language over it. */
export type Texts = { all?: string; 'pt-BR'?: string; 'zh-Hans'?: string };

/** The texts of `--x`, `--x-pt` and `--x-zh` as given: each only when given. */
export function texts(all?: string, pt?: string, zh?: string): Texts {
  return {
    ...(all !== undefined ? { all } : {}),
    ...(pt !== undefined ? { 'pt-BR': pt } : {}),
    ...(zh !== undefined ? { 'zh-Hans': zh } : {}),
  };
}

/** The texts to store: the given ones over `all`, or over what is stored when `all` is not given. */
export function merged(given: Texts, stored: Localized): Localized {
  const { all, ...perLanguage } = given;
  return all !== undefined ? localized(all, perLanguage) : { ...stored, ...perLanguage };
}

export const hasTexts = (given: Texts) => Object.keys(given).length > 0;
