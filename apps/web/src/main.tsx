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
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { matchLocation, preloadRoutes, ROUTER_BASENAME } from './app/router';
import { i18nReady } from './i18n/i18n';
import { createQueryClient } from './lib/react-query';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
const { pathname } = window.location;
const routerPathname = pathname.startsWith(ROUTER_BASENAME) ? pathname.slice(ROUTER_BASENAME.length) || '/' : pathname;

// The first screen shows once its language's strings and its code have arrived, the brand of index.html until then:
// whole at once, rather than a loader first. Its code and data are asked for side by side (its queries in that
// language). Rendered as a transition, in slices that leave the main thread free in between, rather than in one long
// task.
void i18nReady
  .then(() => preloadRoutes(matchLocation(routerPathname), routerPathname, queryClient))
  .then(() =>
    startTransition(() =>
      createRoot(root).render(
        <StrictMode>
          <App queryClient={queryClient} />
        </StrictMode>,
      ),
    ),
  );
