import { DEFAULT_EMOTION, durationFromPrompt, emotionFromPrompt } from '#adapters/engines/local/emotion-prompt';

describe('the emotion a reaction prompt asks for', () => {
  test.each([
    ["OMG I can't believe this price", 'shocked'],
    ['jaw drop, speechless', 'shocked'],
    ['lol this is hilarious', 'laughing'],
    ['cracking up 😂', 'laughing'],
    ["so hyped, let's go!", 'excited'],
    ['tears, heartbroken', 'crying'],
    ['ew gross, disgusting', 'disgusted'],
    ['this blew my mind', 'mind_blown'],
    ['🤯', 'mind_blown'],
    ['hmm, not convinced', 'skeptical'],
    ['really? sure...', 'skeptical'],
    ["I'm obsessed, heart eyes", 'in_love'],
    ['furious and annoyed', 'angry'],
    ['happy smile', 'happy'],
    ['great product, but shocked by the price', 'shocked'],
    ['really excited about this', 'excited'],
  ])('%s → %s', (prompt, emotion) => {
    expect(emotionFromPrompt(prompt).emotion).toBe(emotion);
  });

  test('with nothing to go on, the reaction is the archetypal one: shocked', () => {
    expect(DEFAULT_EMOTION).toBe('shocked');
    for (const prompt of ['', 'the new blender', '🧃', 'x'.repeat(10_000)]) {
      const read = emotionFromPrompt(prompt);
      expect(read.emotion).toBe('shocked');
      expect(read.matched).toEqual([]);
    }
  });

  test('a negated feeling is not that feeling', () => {
    expect(emotionFromPrompt('not happy at all').emotion).not.toBe('happy');
  });

  test('how strongly: mild words soften, capitals and exclamations strengthen', () => {
    const mild = emotionFromPrompt('slightly surprised').intensity;
    const plain = emotionFromPrompt('surprised').intensity;
    const strong = emotionFromPrompt('EXTREMELY surprised!!!').intensity;
    expect(mild).toBeLessThan(plain);
    expect(plain).toBeLessThan(strong);
    expect(strong).toBeLessThanOrEqual(1);
  });

  test('duration: 4 s unless asked, within 3-5 s, whole frames', () => {
    expect(durationFromPrompt('shocked')).toBe(4);
    expect(durationFromPrompt('shocked for 5 seconds')).toBe(5);
    expect(durationFromPrompt('3.5s of laughing')).toBe(3.5);
    expect(durationFromPrompt('10 sec')).toBe(5);
  });

  test('a decade is an age or an era, not a duration', () => {
    expect(durationFromPrompt('a woman in her 30s, shocked')).toBe(4);
    expect(durationFromPrompt('grandpa in his 70s with a ’90s haircut')).toBe(4);
    expect(durationFromPrompt("an '80s kid laughing for 3 seconds")).toBe(3);
    expect(durationFromPrompt('a 1990s look, 3.5s')).toBe(3.5);
    expect(durationFromPrompt('react for 5s')).toBe(5);
    expect(durationFromPrompt('a 1s gasp')).toBe(3);
    expect(durationFromPrompt('4.01 seconds') * 30).toBeCloseTo(120, 6);
  });

  test('whatever numbers a prompt holds, a reaction lasts 3-5 s: "a woman in her 30s, shocked" is a 4 s shock', () => {
    expect(emotionFromPrompt('a woman in her 30s, shocked')).toMatchObject({ emotion: 'shocked', durationS: 4 });
    for (const prompt of ['a 25 year old laughing for 45 seconds', 'grandma in her 80s, 2 seconds of crying', 'a man aged 62, 1000s of reasons to be shocked', '3.5s of a 90s kid gasping']) {
      const { durationS } = emotionFromPrompt(prompt);
      expect(durationS).toBeGreaterThanOrEqual(3);
      expect(durationS).toBeLessThanOrEqual(5);
    }
  });
});
