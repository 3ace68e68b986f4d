/**
 * What a bundle gets in place of a package it names but never runs (FunctionNeeds.absent): every use
 * throws, naming why, instead of the package's code riding along in the bundle.
 */
const absent = (): never => {
  throw new Error('this package is left out of the Lambda bundle (FunctionNeeds.absent): the code path that reached it was judged unused');
};

export default class AbsentModule {
  constructor() {
    absent();
  }
}
export const zodToJsonSchema = absent;
export const object = absent;
