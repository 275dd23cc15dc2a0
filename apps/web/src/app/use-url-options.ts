import { useLocation, useParams } from 'react-router';
import { MOBILE_FROM, urlOptions } from '../lib/route-params';

/** The mobile flag and language of the current URL (path segments or query), as the shell reads them. */
export function useUrlOptions() {
  const location = useLocation();
  const params = useParams();
  return urlOptions(location.search, params);
}

/** A path inside the panel that keeps mobile mode: `?from=mobile` on screens without a `:from` segment. */
export function inMode(path: string, mobile: boolean): string {
  return mobile ? `${path}?from=${MOBILE_FROM}` : path;
}
