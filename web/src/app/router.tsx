import { lazy, Suspense, useEffect, type ComponentProps, type ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ALL_ROUTES, LOGIN_PATH, NOT_FOUND_PATH, REDIRECTS, type RouteDef } from '../shared/access/routes';
import { screenLoader } from './screens';
import { Guarded } from './Guarded';
import type { ForgotDialog } from '../features/auth/pages/LoginPage';
import { preloadConsole } from './startup';
import { loadLocales } from '../i18n/locales';
import { loadAllTexts } from '../i18n';
import { useSettings } from '../shared/settings';

function toRoute(def: RouteDef): RouteObject {
  return {
    path: def.path,
    handle: def,
    lazy: async () => {
      const { default: Screen } = await screenLoader(def.screen)();
      return { Component: () => <Screen screen={def.screen} /> };
    },
  };
}

/** While the first screen's code loads, the boot splash of index.html stays up: nothing to render over it. */
function BootFallback() {
  return null;
}

/**
 * The forgot-password dialog: the login page's one part in the UI kit, which the page paints without; it comes
 * with the kit the first time it is opened (by then the console's preload has usually fetched both).
 */
const ForgotInKit = lazy(async () => {
  const [{ KitProviders }, { ForgotPasswordDialog }, locale] = await Promise.all([
    import('./Kit'),
    import('../features/auth/components/ForgotPasswordDialog'),
    loadLocales(useSettings.getState().language),
  ]);
  return {
    default: (props: ComponentProps<ForgotDialog>) => (
      <KitProviders initialLocale={locale}>
        <ForgotPasswordDialog {...props} />
      </KitProviders>
    ),
  };
});

function Forgot(props: ComponentProps<ForgotDialog>) {
  return (
    <Suspense fallback={null}>
      <ForgotInKit {...props} />
    </Suspense>
  );
}

/** The login page; the console's code loads once it has painted, so the sign-in only talks to the server. */
function LoginScreen({ Page }: { Page: ComponentType<{ ForgotDialog: ForgotDialog }> }) {
  useEffect(preloadConsole, []);
  return <Page ForgotDialog={Forgot} />;
}

// Every route of spec §2 is registered; whether one may be entered (token, fragments, feature gating, route groups
// disabled by a data-source value of 0) is decided at navigation time by the guard, so a sign-in or a config change
// needs no router rebuild. The first screen's code starts loading as soon as the router exists (createBrowserRouter
// resolves the lazy routes of the current address at once), in parallel with the rest of the boot.
export function createAppRouter() {
  const inShell = ALL_ROUTES.filter((r) => !r.child && r.path !== '/patrol-sys');
  const bare = ALL_ROUTES.filter((r) => r.child || r.path === '/patrol-sys');
  return createBrowserRouter([
    {
      element: <Guarded />,
      HydrateFallback: BootFallback,
      children: [
        {
          path: LOGIN_PATH,
          lazy: async () => {
            const { default: Page } = await import('../features/auth/pages/LoginPage');
            return { Component: () => <LoginScreen Page={Page} /> };
          },
        },
        ...Object.entries(REDIRECTS).map(([from, to]) => ({ path: from, element: <Navigate to={to} replace /> })),
        {
          // Every screen but the login page runs in the UI kit (antd), which the login page does without, and
          // needs the texts beyond the login page's (i18n: the boot defers them).
          lazy: async () => {
            const [{ kitFrame }, locale] = await Promise.all([import('./Kit'), loadLocales(useSettings.getState().language), loadAllTexts()]);
            return { Component: kitFrame(locale) };
          },
          children: [
            { lazy: async () => ({ Component: (await import('./Shell')).default }), children: inShell.map(toRoute) },
            { lazy: async () => ({ Component: (await import('./ChildFrame')).ChildFrame }), children: bare.map(toRoute) },
          ],
        },
        { path: '*', element: <Navigate to={NOT_FOUND_PATH} replace /> },
      ],
    },
  ]);
}
