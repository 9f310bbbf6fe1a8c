// The instance rules are the configured list (WREN_RULES); a rule's id is its position counted
// from 1, as GET /api/v1/instance/rules shows it and as reports cite it.

export function ruleIdAt(index: number): string {
  return String(index + 1);
}

/** The rule's text, or undefined for an id that names no rule. */
export function ruleText(rules: readonly string[], id: string): string | undefined {
  if (!/^[1-9][0-9]{0,8}$/.test(id)) return undefined;
  return rules[Number(id) - 1];
}
