/**
 * Why "Choose Model" has no list to show, in words. Pure (no vscode, no SDK).
 * Why a model list could not be had, in words — never the raw response body (`404 {"type":"error",…}`):
 * the endpoint, what it answered, and that a model name can still be typed in.
 */
export function listingFailure(provider: string, baseURL: string, error: unknown): string {
  const where = hostOf(baseURL);
  const raw = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  const status = typeof raw === 'number' ? raw : undefined;
  const typeIn = 'Type a model name instead.';
  if (status === 404) return `${where} does not list its models (it has no model list). ${typeIn}`;
  if (status === 401 || status === 403) {
    return `${where} refused the key when asked for ${provider}'s models (${status}). Set the key with "Plan & Execute: Set API Key", or type a model name.`;
  }
  if (status !== undefined) return `${where} answered ${status} when asked for ${provider}'s models. ${typeIn}`;
  return `Could not reach ${where} to list ${provider}'s models. ${typeIn}`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url; // TypeError: not a URL, so the text as the user typed it
  }
}
