import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/CloseButton.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { matchRoutes } from 'react-router';
import { App } from './app/app';
import { createRoutes, ROUTER_BASENAME, urlLanguage } from './app/router';
import { startI18n } from './i18n/i18n';
import { createQueryClient } from './lib/react-query';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
const routes = createRoutes();
const params = matchRoutes(routes, window.location, ROUTER_BASENAME)?.at(-1)?.params ?? {};

// The strings of the address's language (`/pannel/mobile/en`, `?lang=en`) or the tab's are loaded first, so that
// the first screen and its calls are in that language from the start; the router then loads the screen's code and
// data side by side, the brand of index.html showing until they have arrived.
void startI18n(urlLanguage(window.location, params)).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} routes={routes} />
    </StrictMode>,
  ),
);
