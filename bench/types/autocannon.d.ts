// The part of autocannon 9's API the driver uses (the package ships no types).
declare module 'autocannon' {
  type Request = {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (req: Record<string, unknown>, context: any) => Record<string, unknown> | null;
    onResponse?: (status: number, body: string, context: any, headers: Record<string, string>) => void;
  };
  type Options = {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    requests?: Request[];
  };
  type Result = { duration: number; errors: number; timeouts: number; non2xx: number };
  type Instance = PromiseLike<Result> & {
    on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): Instance;
    stop(): void;
  };
  function autocannon(options: Options): Instance;
  export default autocannon;
}
