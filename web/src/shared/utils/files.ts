const MB = 1024 * 1024;

/** A file size for people: B, KB or MB. */
export function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < MB) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / MB).toFixed(1)} MB`;
}

/** The served file's address for saving it (docs/messages.md §5: ?download=1). */
export const downloadUrl = (url: string) => `${url}${url.includes('?') ? '&' : '?'}download=1`;
