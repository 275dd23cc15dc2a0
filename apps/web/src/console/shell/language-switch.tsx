import { NativeSelect } from '@mantine/core';
import { isLanguage, LANGUAGES } from '@mutenet/contract';
import { LANGUAGE_NAMES } from '../../components/ui/language-names';
import { setConsoleLanguage, useText } from '../i18n';
import { consoleStrings } from '../strings';

export function LanguageSwitch() {
  const { t, language } = useText(consoleStrings);
  return (
    <NativeSelect
      aria-label={t('language')}
      value={language}
      data={LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))}
      onChange={(event) => {
        const value = event.currentTarget.value;
        if (isLanguage(value)) void setConsoleLanguage(value);
      }}
    />
  );
}
