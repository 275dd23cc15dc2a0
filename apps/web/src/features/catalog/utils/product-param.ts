import { type Plan, type Product, ProductSchema } from '@mutenet/contract';

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64(text: string): Uint8Array {
  const standard = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** What the shop hands the configure screen: URL-safe base64 of the product's UTF-8 JSON. */
export function encodeProduct(plan: Plan | Product): string {
  const product: Product = { pdName: plan.pdName, content: plan.content, packages: plan.packages };
  return toBase64Url(new TextEncoder().encode(JSON.stringify(product)));
}

/**
 * The product in a configure link, or null when the link is not one the shop made (cut short, edited, not base64,
 * not UTF-8, not JSON, or not a product with at least one package). Reads plain and URL-safe base64 alike.
 */
export function decodeProduct(obj: string): Product | null {
  try {
    const json = new TextDecoder('utf-8', { fatal: true }).decode(fromBase64(obj.trim()));
    const parsed = ProductSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
