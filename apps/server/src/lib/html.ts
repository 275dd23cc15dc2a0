import sanitizeHtml from 'sanitize-html';

/**
 * Operator-written HTML (plan contents, notices) reduced to formatting: no scripts, no event handlers, no styles,
 * links only to http(s) and mail. Applied when saved and again when served.
 */
export function sanitizeOperatorHtml(html: string): string {
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
