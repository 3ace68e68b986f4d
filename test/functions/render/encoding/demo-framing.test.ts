/**
 * Which filter graph each framing gets, read as a graph (what the render-level suite cannot see
 * cheaply): the sizes its expressions give for a few pictures, and how its pads are wired.
 */
import { fitToCanonicalFrame } from '#functions/render/encoding/canonical-encoding';
import { framedVideoGraph } from '#functions/render/encoding/demo-framing';
const { max, min, trunc } = Math;

const TAIL = 'tpad=stop=-1,trim=end_frame=60';

/** ffmpeg's expression for a picture of iw x ih stored pixels and sample aspect sar (only what these graphs use). */
function evaluate(expression: string, picture: { iw: number; ih: number; sar?: number }): number {
  const functions = { min, max, trunc };
  const source = expression.replace(/\b(iw|ih|sar)\b/g, (name) => String(name === 'sar' ? (picture.sar ?? 1) : picture[name as 'iw' | 'ih']));
  if (!/^[\d\s.+\-*/(),a-z]+$/.test(source)) throw new Error(`unexpected expression ${expression}`);
  // Only digits, operators and the three functions above are left.
  return new Function(...Object.keys(functions), `return ${source};`)(...Object.values(functions)) as number;
}

/** The w and h expressions of the first `filter=w='...':h='...'` in a chain. */
function sizeExpressions(chain: string, filter: string): { w: string; h: string } {
  const found = new RegExp(`${filter}=w='([^']+)':h='([^']+)'`).exec(chain);
  if (!found) throw new Error(`no ${filter} with w and h in ${chain}`);
  return { w: found[1]!, h: found[2]! };
}

const chains = (graph: string) => graph.split(';');

describe('fit: the whole picture inside the frame, on black (every demo before reframing existed)', () => {
  test('is the canonical fit chain, unchanged, between the input and the length', () => {
    expect(framedVideoGraph('fit', '[0:1]', TAIL, '[v]')).toBe(`[0:1]${fitToCanonicalFrame()},${TAIL}[v]`);
  });
});

describe('crop: the centre cut to 9:16, scaled to fill the frame', () => {
  const graph = framedVideoGraph('crop', '[0:0]', TAIL, '[v]');
  const cut = sizeExpressions(graph, 'crop');
  const size = (picture: { iw: number; ih: number; sar?: number }) => [evaluate(cut.w, picture), evaluate(cut.h, picture)];

  test('one chain: constant rate, crop, scale to exactly 1080x1920, no bars, then the length', () => {
    expect(chains(graph)).toHaveLength(1);
    expect(graph).toMatch(/^\[0:0\]fps=fps=30:start_time=0,crop=.*,scale=1080:1920:out_color_matrix=bt709:out_range=tv,setsar=1,format=yuv420p,tpad=stop=-1,trim=end_frame=60\[v\]$/);
    expect(graph).not.toContain('pad=1080');
  });

  test.each<[string, { iw: number; ih: number; sar?: number }, number[]]>([
    ['landscape 1280x720', { iw: 1280, ih: 720 }, [404, 720]],
    ['square 720x720', { iw: 720, ih: 720 }, [404, 720]],
    ['already 9:16', { iw: 720, ih: 1280 }, [720, 1280]],
    ['portrait taller than 9:16 (1:3)', { iw: 400, ih: 1200 }, [400, 710]],
    ['anamorphic 720x576 shown as 960x576 (sar 4:3)', { iw: 720, ih: 576, sar: 4 / 3 }, [242, 576]],
  ])('%s is cut to %j stored pixels: 9:16 as displayed, even sizes', (_label, picture, expected) => {
    const [w, h] = size(picture);
    expect([w, h]).toEqual(expected);
    expect(((w! * (picture.sar ?? 1)) / h!) * 16).toBeCloseTo(9, 1);
  });
});

describe('blur: the whole picture fitted to the width, centred over a blurred, darkened copy filling the frame', () => {
  const graph = framedVideoGraph('blur', '[0:0]', TAIL, '[v]');
  const [split, backdrop, picture, overlay] = chains(graph);

  test('the input is split once into a backdrop and a picture, overlaid centred, then the length', () => {
    expect(chains(graph)).toHaveLength(4);
    expect(split).toBe('[0:0]fps=fps=30:start_time=0,split=2[v_back][v_front]');
    expect(backdrop).toMatch(/^\[v_back\].*\[v_backdrop\]$/);
    expect(picture).toMatch(/^\[v_front\].*\[v_picture\]$/);
    expect(overlay).toBe(`[v_backdrop][v_picture]overlay=x=(W-w)/2:y=(H-h)/2,format=yuv420p,${TAIL}[v]`);
  });

  test('the picture is scaled as fit scales it, without the bars', () => {
    expect(fitToCanonicalFrame()).toContain(picture!.replace('[v_front]', '').replace('[v_picture]', ''));
    const fit = sizeExpressions(picture!, 'scale');
    expect([evaluate(fit.w, { iw: 1280, ih: 720 }), evaluate(fit.h, { iw: 1280, ih: 720 })]).toEqual([1080, 606]);
  });

  test('the backdrop covers a quarter-size frame, is blurred and darkened there, and is scaled up to the whole frame', () => {
    const cover = sizeExpressions(backdrop!, 'scale');
    for (const source of [{ iw: 1280, ih: 720 }, { iw: 720, ih: 720 }, { iw: 721, ih: 1283 }]) {
      expect(evaluate(cover.w, source)).toBeGreaterThanOrEqual(270);
      expect(evaluate(cover.h, source)).toBeGreaterThanOrEqual(480);
    }
    expect(backdrop).toMatch(/crop=270:480,boxblur=[^,]+,lutyuv=y='16\+\(val-16\)\*0\.5'.*,scale=1080:1920:out_color_matrix=bt709:out_range=tv,setsar=1\[v_backdrop\]$/);
  });

  test('its inner pads are named after the output, so two framed graphs can share one filter graph', () => {
    const other = framedVideoGraph('blur', '[1:0]', TAIL, '[demo]');
    expect(other).toContain('[demo_backdrop][demo_picture]overlay');
    expect(other).not.toContain('[v_');
  });
});
