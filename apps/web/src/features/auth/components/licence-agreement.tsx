import '@mantine/core/styles/Title.css';
import { Stack, Text, Title } from '@mantine/core';
import { useLanguage } from '../../../i18n/use-language';
import { LICENCE_TEXT } from './licence-text';

/** The user licence agreement, in the language on screen. */
export function LicenceAgreement() {
  const { language } = useLanguage();
  const text = LICENCE_TEXT[language];
  return (
    <Stack gap="md" data-testid="licence-agreement">
      <Text size="sm" c="dimmed">
        {text.updated}
      </Text>
      <Text>{text.intro}</Text>
      {text.sections.map((section) => (
        <section key={section.title}>
          <Title order={2} size="h4" mb="xs">
            {section.title}
          </Title>
          <Stack gap="xs">
            {section.paragraphs.map((paragraph) => (
              <Text key={paragraph}>{paragraph}</Text>
            ))}
          </Stack>
        </section>
      ))}
    </Stack>
  );
}
