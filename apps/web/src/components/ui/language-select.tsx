import { NativeSelect } from '@mantine/core';
import { MENU_LANGUAGES, REQUEST_LANGUAGE } from '@mutenet/contract';
import { useTranslation } from 'react-i18next';
import { parseLanguage } from '../../i18n/i18n';
import { useLanguage } from '../../i18n/use-language';
import { ChevronDownIcon, GlobeIcon } from './icons';
import { LANGUAGE_NAMES } from './language-names';

/**
 * The language dropdown of the login, register and reset screens and of the header. It offers
 * English and Portuguese; Chinese, reachable only through `?lang=zh`, is listed while it is on screen.
 * A native select: light, and the phone's own picker on small screens. It is as wide as its longest name in the
 * device's font, not a set width, which clipped "Português" in the header.
 */
export function LanguageSelect() {
  const { t } = useTranslation();
  const { language, setLanguage } = useLanguage();
  const options = MENU_LANGUAGES.includes(language) ? MENU_LANGUAGES : [...MENU_LANGUAGES, language];

  return (
    <NativeSelect
      aria-label={t('app.language')}
      value={language}
      onChange={(event) => {
        const next = parseLanguage(event.currentTarget.value);
        if (next) void setLanguage(next);
      }}
      leftSection={<GlobeIcon size={16} />}
      rightSection={<ChevronDownIcon size={14} />}
      data-testid="language-select"
    >
      {options.map((option) => (
        <option key={option} value={option} lang={REQUEST_LANGUAGE[option]}>
          {LANGUAGE_NAMES[option]}
        </option>
      ))}
    </NativeSelect>
  );
}
