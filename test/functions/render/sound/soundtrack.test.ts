/** The mix as a filter graph: read, not run, so each part's place in it is a specification. */
import { JOIN_CROSSFADE_S, soundtrackGraph, type SoundtrackSpec } from '#functions/render/sound/soundtrack';

const base: SoundtrackSpec = { reactionS: 4, demoS: 10, voicePath: null, demo: null, effectPath: null, bed: null };
const chainsOf = (spec: SoundtrackSpec) => soundtrackGraph(spec).graph.split(';');

describe('soundtrackGraph', () => {
  test('no sound at all: silence exactly as long as the video', () => {
    expect(soundtrackGraph(base)).toEqual({ inputs: [], graph: 'anullsrc=r=48000:cl=stereo,apad=whole_len=672000,atrim=end_sample=672000[out]' });
  });

  test('auto: the effect under the reaction, fading out as the demo fades in under it', () => {
    const chains = chainsOf({ ...base, effectPath: '/s/effect.m4a', demo: { path: '/s/demo.mp4', gainDb: 0 } });
    const effect = chains.find((c) => c.endsWith('[effect]'))!;
    expect(effect).toContain('atrim=end_sample=192000');
    expect(effect).toContain(`afade=t=out:st=${(4 - JOIN_CROSSFADE_S).toFixed(4)}:d=${JOIN_CROSSFADE_S.toFixed(4)}`);
    const demo = chains.find((c) => c.includes('[demo]'))!;
    expect(demo).toContain(`afade=t=in:d=${JOIN_CROSSFADE_S.toFixed(4)}`);
    expect(demo).toContain(`adelay=delays=${((4 - JOIN_CROSSFADE_S) * 1000).toFixed(1)}:all=1`);
    expect(chains.at(-1)).toBe('[effect][demo]amix=inputs=2:duration=longest:normalize=0,apad=whole_len=672000,atrim=end_sample=672000[out]');
  });

  test('music: the bed loops across the whole video and ducks under the demo', () => {
    const { inputs, graph } = soundtrackGraph({ ...base, demo: { path: '/s/demo.mp4', gainDb: 0 }, bed: { path: '/s/bed.m4a', role: 'music' } });
    expect(inputs).toEqual(['-i', 'file:/s/demo.mp4', '-stream_loop', '-1', '-i', 'file:/s/bed.m4a']);
    // Each source is brought to 48 kHz stereo (ffmpeg resamples the ones that are not).
    expect(graph).toContain('[1:a:0]aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo');
    expect(graph).toContain('atrim=end_sample=672000,volume=-4dB[bed_dry]');
    expect(graph).toMatch(/\[bed_dry\]\[demo_ducks_bed\]sidechaincompress=/);
  });

  test('auto’s fill bed stays low under a demo with sound, and plays as music where the demo has none', () => {
    const fill = { path: '/s/fill.m4a', role: 'fill' as const };
    expect(soundtrackGraph({ ...base, demo: { path: '/s/demo.mp4', gainDb: 0 }, bed: fill }).graph).toContain('volume=-24dB[bed_dry]');
    expect(soundtrackGraph({ ...base, demo: null, bed: fill }).graph).toContain('volume=-4dB[bed]');
  });

  test('a voice line sits on top: the effect and the bed duck under it', () => {
    const graph = soundtrackGraph({ ...base, voicePath: '/s/segment.mp4', effectPath: '/s/effect.m4a', demo: { path: '/s/demo.mp4', gainDb: 0 }, bed: { path: '/s/bed.m4a', role: 'music' } }).graph;
    expect(graph).toContain('asplit=3[voice][voice_ducks_effect][voice_ducks_bed]');
    expect(graph).toMatch(/\[effect_dry\]\[voice_ducks_effect\]sidechaincompress/);
    expect(graph).toContain('[voice_ducks_bed][demo_ducks_bed]amix=inputs=2');
    expect(graph).toContain('[voice][effect][demo][bed]amix=inputs=4');
  });

  test('a demo normalised before levelling carries its gain into the mix', () => {
    expect(soundtrackGraph({ ...base, demo: { path: '/s/demo.mp4', gainDb: 12.5 } }).graph).toContain('volume=12.50dB');
  });

  test('a reaction-only video has no crossfade to make', () => {
    const graph = soundtrackGraph({ ...base, demoS: 0, effectPath: '/s/effect.m4a' }).graph;
    expect(graph).toContain('afade=t=out:st=4.0000:d=0.0050');
    expect(graph).toContain('apad=whole_len=192000');
  });
});
