/**
 * The mission's task from an issue: its title and body with HTML comments removed (text a reader of the
 * issue never sees is a known injection path), plus what followed `/plan-execute`.
 */

/**
 * Markdown without HTML comments. An unclosed `<!--` hides the rest of the text on GitHub, so it is cut
 * there too. Repeated until stable, so that removing one comment cannot join two halves into a new one.
 */
export function withoutHtmlComments(text: string): string {
  let out = text;
  for (;;) {
    const next = out.replace(/<!--[\s\S]*?(?:-->|$)/g, '');
    if (next === out) return out;
    out = next;
  }
}

export function issueTask(issue: { number: number; title: string; body?: string | null | undefined }, extra: string): string {
  const body = withoutHtmlComments(issue.body ?? '').trim();
  const more = withoutHtmlComments(extra).trim();
  return [`${withoutHtmlComments(issue.title).trim()} (issue #${issue.number})`, body, more ? `Also: ${more}` : ''].filter(Boolean).join('\n\n');
}
