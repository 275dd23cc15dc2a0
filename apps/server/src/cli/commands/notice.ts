import { REQUEST_LANGUAGES } from '@mutenet/contract';
import { type Localized, localized } from '../../lib/localized.js';
import type { NoticeService } from '../../modules/notice/notice.service.js';
import { command, flag, type Noun, type Parsed, text } from '../command.js';
import { keyValues } from '../output.js';

const TEXT_MAX = 20_000;

const noticeJson = (texts: Localized | undefined) => ({ set: texts !== undefined, texts: texts ?? null });

const noticeText = (texts: Localized | undefined) =>
  texts
    ? keyValues(REQUEST_LANGUAGES.map((lang): [string, string] => [`text (${lang})`, texts[lang] ?? '']))
    : 'no notice: the dashboard shows none';

async function shown(notice: NoticeService, headline?: string) {
  const texts = await notice.all();
  const body = noticeText(texts);
  return { json: noticeJson(texts), text: headline ? `${headline}\n${body}` : body };
}

function noticeTexts(parsed: Parsed): Localized {
  const value = (key: string) => {
    const given = flag(parsed, key);
    return given === undefined ? undefined : text(given, `--${key}`, TEXT_MAX);
  };
  const pt = value('text-pt');
  const zh = value('text-zh');
  return localized(value('text') ?? '', {
    ...(pt !== undefined ? { 'pt-BR': pt } : {}),
    ...(zh !== undefined ? { 'zh-Hans': zh } : {}),
  });
}

export const noticeCommands: Noun = {
  summary: 'the notice banner on customers’ dashboards, per language',
  verbs: {
    set: command({
      summary: 'sets the notice; HTML, stripped of scripts, styles and event handlers',
      flags: {
        text: {
          value: 'HTML',
          help: 'the notice in every language unless --text-pt or --text-zh say otherwise',
          required: true,
        },
        'text-pt': { value: 'HTML', help: 'the notice in Portuguese (pt-BR)' },
        'text-zh': { value: 'HTML', help: 'the notice in Chinese (zh-Hans)' },
      },
      example:
        'admin notice set --text "<b>Maintenance</b> on 1 May, 02:00 UTC" --text-zh "<b>维护</b>：5 月 1 日 02:00 UTC"',
      parse: noticeTexts,
      async run(texts, { notice }) {
        await notice.set(texts);
        return shown(notice, 'notice set');
      },
    }),
    clear: command({
      summary: 'removes the notice',
      example: 'admin notice clear',
      parse: () => null,
      async run(_input, { notice }) {
        await notice.clear();
        return shown(notice, 'notice cleared');
      },
    }),
    show: command({
      summary: 'the notice as stored, in every language',
      example: 'admin notice show',
      parse: () => null,
      run: (_input, { notice }) => shown(notice),
    }),
  },
};
