// The console's font stack: antd's, with the bundled CJK fallback (cjk.ts) before the generic family, so Chinese
// reads on a machine without CJK fonts. Kept apart from cjk.ts so that naming it loads nothing.
export const CJK_FAMILY = 'tenfour CJK';

export const FONT_FAMILY = `-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', '${CJK_FAMILY}', sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji', 'Segoe UI Symbol', 'Noto Color Emoji'`;
