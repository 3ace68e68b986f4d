/**
 * The analytics charts as uPlot options: lines per day, grouped bars per provider, drawn like the
 * Mantine charts they replace (dashed horizontal grid, no tick marks, counts in the locale's format,
 * a legend that names the series and, under the cursor, reads their values).
 */
import uPlot from 'uplot';
import { formatCount } from './analytics-words';
import type { ChartOptions } from './UPlotChart';

export interface ChartSpec {
  kind: 'lines' | 'bars';
  /** What the x positions are ('Day', 'Provider') and each one's name. */
  categoryName: string;
  categories: string[];
  series: { label: string; color: string; values: number[] }[];
}

/** The theme's text colour and the axes' font (a CSS font, e.g. `12px sans-serif`). */
export interface ChartLook {
  text: string;
  font: string;
}

const { ceil, max } = Math;
/** @mantine/charts' grid colour on a light background. */
const GRID = 'rgba(173, 181, 189, 0.6)';
/** Counts and positions are whole numbers: ticks step by 1, 2, 5, 10, 20, 50… */
const STEPS = Array.from({ length: 10 }, (_, power) => [1, 2, 5].map((m) => m * 10 ** power)).flat();
/** The share of a provider's width its group of bars takes. */
const GROUP = 0.6;

/** From 0 to a round number at or above the largest value (0 to 4 when all are 0). */
const yRange: uPlot.Range.Function = (_u, _min, top) => {
  const step = STEPS.find((s) => top / s <= 4) ?? STEPS[STEPS.length - 1]!;
  return [0, max(4, step * ceil(top / step))];
};

let measure: CanvasRenderingContext2D | null = null;
/** The y axis as wide as its longest label. */
const fitLabels =
  (font: string): uPlot.Axis.Size =>
  (_u, values) => {
    measure ??= document.createElement('canvas').getContext('2d');
    if (!measure || !values) return 48;
    measure.font = font;
    return ceil(max(0, ...values.map((v) => measure!.measureText(v).width))) + 16;
  };

/** Each series' bars side by side inside its provider's group. */
function groupedBars(index: number, count: number): uPlot.Series.PathBuilder {
  const width = GROUP / count;
  const x0 = (u: uPlot) => Array.from(u.data[0], (x) => x - GROUP / 2 + index * width);
  const size = (u: uPlot) => Array.from(u.data[0], () => width);
  return uPlot.paths.bars!({ disp: { x0: { unit: 1, values: x0 }, size: { unit: 1, values: size } } });
}

function axes(spec: ChartSpec, look: ChartLook): uPlot.Axis[] {
  const common = { stroke: look.text, font: look.font, ticks: { show: false }, gap: 8, incrs: STEPS };
  const category = (index: number) => spec.categories[index] ?? '';
  return [
    {
      ...common,
      grid: { show: false },
      space: 48,
      size: 24,
      values: (_u, splits) => splits.map(category),
      ...(spec.kind === 'bars' ? { splits: () => spec.categories.map((_, i) => i) } : {}),
    },
    { ...common, grid: { stroke: GRID, width: 1, dash: [5, 5] }, size: fitLabels(look.font), values: (_u, splits) => splits.map(formatCount) },
  ];
}

function series(spec: ChartSpec): uPlot.Series[] {
  const value = (_u: uPlot, v: number | null) => (v === null ? '–' : formatCount(v));
  const dots = spec.categories.length <= 31;
  return spec.series.map(({ label, color }, index) =>
    spec.kind === 'lines'
      ? { label, value, stroke: color, width: 2, points: { show: dots, size: 7, fill: color, stroke: color } }
      : { label, value, fill: color, stroke: color, width: 0, paths: groupedBars(index, spec.series.length), points: { show: false } },
  );
}

/** The uPlot options and data that draw `spec`. */
export function chartOf(spec: ChartSpec, look: ChartLook): { options: ChartOptions; data: uPlot.AlignedData } {
  const last = spec.categories.length - 1;
  const options: ChartOptions = {
    // Room at the top for the highest label, on the right for the last day's.
    padding: [12, spec.kind === 'lines' ? 20 : 8, 0, 0],
    scales: { x: { time: false, range: spec.kind === 'bars' ? [-0.5, last + 0.5] : [0, max(last, 1)] }, y: { range: yRange } },
    axes: axes(spec, look),
    series: [{ label: spec.categoryName, value: (_u, i) => (i === null ? '' : (spec.categories[i] ?? '')) }, ...series(spec)],
    cursor: { x: spec.kind === 'lines', y: false, drag: { x: false, y: false, setScale: false }, points: { show: spec.kind === 'lines' } },
    legend: {
      markers: { width: 0, fill: (_u, i) => spec.series[i - 1]?.color ?? 'transparent' },
      mount: (u, legend) => u.root.prepend(legend),
    },
    hooks: {
      // uPlot's CSS shows the values only on a live legend: live while the cursor is over the plot.
      setLegend: [(u) => u.root.querySelector('.u-legend')?.classList.toggle('u-live', u.legend.idx != null)],
    },
  };
  return { options, data: [spec.categories.map((_, i) => i), ...spec.series.map((s) => s.values)] };
}
