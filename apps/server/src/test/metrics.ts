import { expect } from 'vitest';

export type Metric = {
  help: string;
  type: string;
  samples: Array<{ name: string; labels: Record<string, string>; value: number }>;
};

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y;

/** A small reader of the Prometheus text format 0.0.4: every line must be HELP, TYPE or a sample of a declared metric. */
export function parseExposition(text: string): Map<string, Metric> {
  const metrics = new Map<string, Metric>();
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.slice(0, -1).split('\n')) {
    // Blank lines may part the metrics.
    if (line === '') continue;
    const help = /^# HELP (\S+) (.+)$/.exec(line);
    if (help) {
      expect(metrics.has(help[1]!), `one HELP for ${help[1]}`).toBe(false);
      metrics.set(help[1]!, { help: help[2]!, type: '', samples: [] });
      continue;
    }
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      const metric = metrics.get(type[1]!);
      expect(metric, `HELP before TYPE for ${type[1]}`).toBeDefined();
      metric!.type = type[2]!;
      continue;
    }
    const sample = SAMPLE.exec(line);
    expect(sample, `a sample line: ${line}`).not.toBeNull();
    const [, name, labelText = '', value] = sample!;
    const family = [...metrics.keys()].find(
      (key) =>
        name === key ||
        (metrics.get(key)!.type === 'histogram' &&
          /^_(bucket|sum|count)$/.test(name!.slice(key.length)) &&
          name!.startsWith(key)),
    );
    expect(family, `sample ${name} of a declared metric`).toBeDefined();
    const labels: Record<string, string> = {};
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < labelText.length) {
      const match = LABEL.exec(labelText);
      expect(match, `labels of ${line}`).not.toBeNull();
      labels[match![1]!] = match![2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    const number = value === '+Inf' ? Number.POSITIVE_INFINITY : Number(value);
    expect(Number.isNaN(number), `value of ${line}`).toBe(false);
    metrics.get(family!)!.samples.push({ name: name!, labels, value: number });
  }
  for (const [name, metric] of metrics) expect(metric.type, `TYPE of ${name}`).not.toBe('');
  return metrics;
}

/** The value of the sample of `name` whose labels include `labels` (0 when there is none). */
export function sampleValue(
  metrics: Map<string, Metric>,
  family: string,
  labels: Record<string, string>,
  name = family,
) {
  const sample = metrics
    .get(family)
    ?.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return sample?.value ?? 0;
}
