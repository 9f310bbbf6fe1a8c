// The instance rules. Each has an id that never changes nor comes back once its rule is removed,
// because reports cite rules by id. The rules configured in WREN_RULES are numbered from 1 by
// position; rules the operator manages from the CLI keep the ids they were given.

export interface Rule {
  id: string;
  text: string;
  /** Longer explanation shown under the rule; "" for none. */
  hint: string;
}

export const RULE_TEXT_MAX_LENGTH = 300;
export const RULE_HINT_MAX_LENGTH = 1000;

/** The configured rule texts (WREN_RULES) as rules with ids 1, 2, 3… */
export function rulesFromTexts(texts: readonly string[]): Rule[] {
  return texts.map((text, index) => ({ id: String(index + 1), text, hint: "" }));
}

/** The rule's text, or undefined for an id that names no rule. */
export function ruleText(rules: readonly Rule[], id: string): string | undefined {
  if (!/^[1-9][0-9]{0,8}$/.test(id)) return undefined;
  return rules.find((rule) => rule.id === id)?.text;
}
