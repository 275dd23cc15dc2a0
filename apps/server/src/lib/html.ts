import sanitizeHtml from 'sanitize-html';

/** How many sanitised texts are kept: far more than a catalogue's plan contents in three languages and a notice. */
const KEPT = 500;
const sanitised = new Map<string, string>();

/**
 * Operator-written HTML (plan contents, notices) reduced to formatting: no scripts, no event handlers, no styles,
 * links only to http(s) and mail. Applied when saved and again when served; as it is a pure function of the text
 * and costs a parse, a served text's result is kept, so the catalogue does not parse every plan on every request.
 */
export function sanitizeOperatorHtml(html: string): string {
  let clean = sanitised.get(html);
  if (clean === undefined) {
    clean = sanitize(html);
    // Oldest first out, so that texts that changed do not pile up.
    if (sanitised.size >= KEPT) sanitised.delete(sanitised.keys().next().value!);
    sanitised.set(html, clean);
  }
  return clean;
}

function sanitize(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      'p',
      'br',
      'b',
      'strong',
      'i',
      'em',
      'u',
      's',
      'ul',
      'ol',
      'li',
      'span',
      'div',
      'h3',
      'h4',
      'a',
      'small',
    ],
    allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
  });
}
