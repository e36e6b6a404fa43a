import { App as AntApp, ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import { useEffect, useState, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { useBranding } from '../shared/branding/store';
import { useSettings } from '../shared/settings';
import { loadLocales } from '../i18n/locales';
import { buildTheme } from '../shared/theme';
import { NotifyBridge } from './NotifyBridge';

// Toast 3 s at offset 80, notice 3 s at offset 50 (spec §9).
export const MESSAGE_CONFIG = { duration: 3, top: 80 } as const;
export const NOTIFICATION_CONFIG = { duration: 3, top: 50 } as const;

/** The UI kit's context: antd's theme (skin, primary colour, the host's colour) and its texts in the UI language. */
export function KitProviders({ children, initialLocale }: { children: ReactNode; initialLocale: Locale }) {
  const skin = useSettings((s) => s.theme);
  const primary = useSettings((s) => s.primaryColor);
  const language = useSettings((s) => s.language);
  const brandColour = useBranding((s) => s.branding?.themeColor);
  const [locale, setLocale] = useState<Locale>(initialLocale);

  useEffect(() => {
    let live = true;
    void loadLocales(language).then((l) => live && setLocale(l));
    return () => {
      live = false;
    };
  }, [language]);

  return (
    <ConfigProvider locale={locale} theme={buildTheme(skin, primary, brandColour)} componentSize="middle">
      <AntApp message={{ ...MESSAGE_CONFIG, maxCount: 3 }} notification={{ ...NOTIFICATION_CONFIG, placement: 'topRight' }}>
        {children}
      </AntApp>
    </ConfigProvider>
  );
}

/**
 * The layout route of every screen but the login page: the kit, its texts (loaded before the first render: no
 * flash of English dates or buttons), and the bridge that lets non-React code show toasts.
 */
export function kitFrame(locale: Locale): () => ReactNode {
  return function KitFrame() {
    return (
      <KitProviders initialLocale={locale}>
        <NotifyBridge />
        <Outlet />
      </KitProviders>
    );
  };
}
