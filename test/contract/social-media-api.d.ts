/** Ayrshare's SDK ships no types: the calls the contract tests make, loosely. */
declare module 'social-media-api' {
  type Answer = Record<string, any>;
  export default class SocialMediaAPI {
    constructor(apiKey: string);
    setProfileKey(profileKey: string): this;
    setTwitterByo(apiKey: string, apiSecret: string): this;
    post(data: Record<string, unknown>): Promise<Answer>;
    delete(data: Record<string, unknown>): Promise<Answer>;
    retryPost(data: Record<string, unknown>): Promise<Answer>;
    getPost(data: { id: string }): Promise<Answer>;
    history(params?: Record<string, unknown>): Promise<Answer>;
    analyticsPost(data: Record<string, unknown>): Promise<Answer>;
    user(params?: Record<string, unknown>): Promise<Answer>;
  }
}
