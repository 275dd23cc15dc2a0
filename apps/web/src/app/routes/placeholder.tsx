import { useTranslation } from 'react-i18next';
import { PlaceholderScreen } from '../../components/ui/placeholder-screen';
import { useRouteTitle } from '../route-handle';

/** Screens still to come (and the empty ones: invite, help, flow): the route's title as the heading. */
export default function PlaceholderRoute() {
  const { t } = useTranslation();
  const titleKey = useRouteTitle();
  return <PlaceholderScreen title={titleKey ? t(titleKey) : ''} />;
}
