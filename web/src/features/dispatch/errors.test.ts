// @vitest-environment node
// Spec §8 "Terminal add 107: customer does not exist": the refusal of saveGroupMs diffClient=1 names its own
// sentence (internal/directory ErrDiffClient), in every language, not 107's generic "no permission".
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { ApiError } from '../../shared/http/client';
import { errorText } from '../../shared/errorText';
import { LANGUAGES } from '../../i18n/languages';

type Texts = { errors?: Record<string, string>; codes?: Record<string, string> };
const byLang = (files: Record<string, { default: Texts }>) =>
  Object.fromEntries(Object.entries(files).map(([path, m]) => [path.slice(path.lastIndexOf('/') + 1, -'.json'.length), m.default]));
const dispatch = byLang(import.meta.glob<{ default: Texts }>('./i18n/*.json', { eager: true }));
const common = byLang(import.meta.glob<{ default: Texts }>('../../shared/i18n/*.json', { eager: true }));

describe('terminal add 107', () => {
  it.each(LANGUAGES)('reads "customer does not exist" in %s', async (lng) => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng, ns: ['common', 'dispatch'], defaultNS: 'common', resources: { [lng]: { common: common[lng]!, dispatch: dispatch[lng]! } } });
    const said = errorText(i18n, 'dispatch', new ApiError('107', 'customer does not exist', 'dispatch.errors.customerMissing'));
    expect(said).toBe(dispatch[lng]!.errors!.customerMissing);
    expect(said).not.toBe(common[lng]!.codes!['107']);
    // Every other 107 keeps its meaning.
    expect(errorText(i18n, 'dispatch', new ApiError('107', 'no permission', 'errors.permission'))).toBe(common[lng]!.codes!['107']);
  });
});
