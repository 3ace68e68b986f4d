/**
 * One uPlot chart, 240 px high (its legend included) and as wide as its box, following the box's width.
 * Hand-written rather than uplot-react: creating the plot in an effect and destroying it in the
 * cleanup is all such a wrapper would do here.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import classes from './UPlotChart.module.css';

const HEIGHT = 240;

export type ChartOptions = Omit<uPlot.Options, 'width' | 'height'>;

/** `options` and `data` are compared by identity: a new object draws a new plot. */
export function UPlotChart({ options, data }: { options: ChartOptions; data: uPlot.AlignedData }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const plot = new uPlot({ ...options, width: element.clientWidth, height: HEIGHT }, data, element);
    // The legend sits above the plot (chart-options.ts mounts it there), inside the 240 px; it can
    // wrap when the box narrows or, under the cursor, when it reads the values.
    const legend = element.querySelector<HTMLElement>('.u-legend');
    const fit = () => plot.setSize({ width: element.clientWidth, height: HEIGHT - (legend?.offsetHeight ?? 0) });
    fit();
    const resize = new ResizeObserver(fit);
    resize.observe(element);
    if (legend) resize.observe(legend);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [options, data]);
  return <div ref={box} className={classes.chart} />;
}
