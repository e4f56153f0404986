/** Structured JSON log lines on stdout. Never given API keys or passwords. */
export type Logger = (event: string, data?: Record<string, unknown>) => void;

export function jsonLogger(stream: NodeJS.WritableStream = process.stdout): Logger {
  return (event, data = {}) => {
    stream.write(`${JSON.stringify({ time: new Date().toISOString(), event, ...data })}\n`);
  };
}

export const silentLogger: Logger = () => undefined;
