import { soundtrackGraph } from '#functions/render/sound/soundtrack';
import { encodeLevelled } from '#functions/render/sound/level-encode';
import { measureLoudness } from '#functions/render/sound/loudness';
(async()=>{
 const g = soundtrackGraph({ reactionS: 4, demoS: 6, voicePath: null, demo: { path: '/tmp/demo.mp4', gainDb: 0 }, effectPath: '/tmp/snd/riser-hit.m4a', bed: { path: '/tmp/snd/cinematic-rise.m4a', role: 'fill' } });
 console.log(g.graph.split(';').join('\n'));
 const t=Date.now(); const m = await encodeLevelled({ ...g, outputPath: '/tmp/mix.m4a' }); console.log(Date.now()-t, m);
})();
