/**
 * Where the console lives (`ADMIN_PATH`, runtime configuration): the server writes it into the page as
 * `<base href="/admin/">`. Without one (a test page) it is the root. No trailing slash: the router's basename.
 */
export function consoleBasePath(): string {
  return new URL(document.baseURI).pathname.replace(/\/+$/, '');
}
