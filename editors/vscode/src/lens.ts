// The check's estimate on the kernel's entry line without hovering: a code lens over the line that carries the
// server's AKGEN-ESTIMATE diagnostic ("estimated 9.1 us on Ascend910B2 (estimate; bound: MTE2), 1/1 cases pass").
// Pure here (which diagnostics make a lens, and its title); extension.ts registers the provider.

export const ESTIMATE_CODE = "AKGEN-ESTIMATE";

export interface DiagnosticLike {
  code?: string | number | { value: string | number } | undefined;
  message: string;
  line: number;
}

export interface Lens {
  line: number;
  title: string;
}

function codeOf(d: DiagnosticLike): string | undefined {
  const c = d.code;
  if (c === undefined || c === null) {
    return undefined;
  }
  return typeof c === "object" ? String(c.value) : String(c);
}

/** One lens per estimate diagnostic: its line and its message (the first line of it). */
export function estimateLenses(diagnostics: DiagnosticLike[]): Lens[] {
  return diagnostics
    .filter((d) => codeOf(d) === ESTIMATE_CODE)
    .map((d) => ({ line: d.line, title: `akgen: ${d.message.split("\n")[0]}` }));
}
