import type { BrowserContext } from 'playwright-core';

/** A Content-Security-Policy violation as the page reported it. */
export type PolicyViolation = { directive: string; blocked: string; page: string };

/**
 * Every violation of the Content-Security-Policy that any page of the context reports (its `securitypolicyviolation`
 * events), from before the page's first script on.
 */
export async function recordPolicyViolations(context: BrowserContext): Promise<PolicyViolation[]> {
  const violations: PolicyViolation[] = [];
  await context.exposeBinding('__reportPolicyViolation', (_source, violation: PolicyViolation) => {
    violations.push(violation);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportPolicyViolation(v: PolicyViolation): void })
        .__reportPolicyViolation;
      report({ directive: event.effectiveDirective, blocked: event.blockedURI, page: location.pathname });
    });
  });
  return violations;
}
