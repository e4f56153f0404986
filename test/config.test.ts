/**
 * The configuration (lib/config.ts): read from the environment once, limits with finite defaults,
 * a bad value refused at boot with a sentence naming the variable, and the result frozen, limits
 * too, so nothing changes it after start.
 */
import t from 'tap';
import { DEFAULT_LIMITS, LIMIT_ENV_NAMES, loadConfig } from '../lib/config.js';

t.test('defaults, and every limit from its variable', async (t) => {
  const config = loadConfig({ TALLY_DATA_DIR: '/tmp/tally-config-test', TALLY_PARSE_WORKERS: '0' });
  t.strictSame(config.limits, DEFAULT_LIMITS);
  t.equal(config.parseWorkers, 0);
  t.equal(config.port, 8080);
  for (const [key, name] of Object.entries(LIMIT_ENV_NAMES)) {
    const limits = loadConfig({ [name]: '7' }).limits;
    t.equal(limits[key as keyof typeof limits], 7, `${name} sets ${key}`);
  }
});

t.test('a bad value fails at boot, naming the variable', async (t) => {
  const cases: [env: Record<string, string>, error: RegExp][] = [
    [{ TALLY_MAX_UPLOAD_BYTES: '0' }, /^TALLY_MAX_UPLOAD_BYTES must be a positive whole number, got "0"$/],
    [{ TALLY_MAX_FIELDS: '1.5' }, /^TALLY_MAX_FIELDS must be a positive whole number/],
    [{ PORT: 'eighty' }, /^PORT must be a positive whole number/],
    [{ TALLY_PARSE_WORKERS: '-1' }, /^TALLY_PARSE_WORKERS must be a whole number \(0 or more\)/],
  ];
  for (const [env, error] of cases) t.throws(() => loadConfig(env), { message: error }, JSON.stringify(env));
});

t.test('frozen, limits and formatter list too', async (t) => {
  const config = loadConfig({ TALLY_FORMATTERS: 'a, b' });
  t.ok(Object.isFrozen(config), 'the config');
  t.ok(Object.isFrozen(config.limits), 'its limits');
  t.ok(Object.isFrozen(config.formatterModules), 'its formatter modules');
  t.ok(Object.isFrozen(DEFAULT_LIMITS), 'the defaults');
  t.strictSame(config.formatterModules, ['a', 'b']);
  t.throws(() => {
    (config.limits as { maxUploadBytes: number }).maxUploadBytes = 1;
  }, TypeError);
  // A copy is the way to vary it (tests do): the original stays as it was.
  const copy = { ...config, limits: { ...config.limits, maxUploadBytes: 1 } };
  t.equal(copy.limits.maxUploadBytes, 1);
  t.equal(config.limits.maxUploadBytes, DEFAULT_LIMITS.maxUploadBytes);
});

t.test('TALLY_SECRET_KEY: a key when given, refused at boot when malformed, null when absent', async (t) => {
  const hex = 'ab'.repeat(32);
  const config = loadConfig({ TALLY_SECRET_KEY: hex });
  t.ok(config.secretKey);
  t.notOk(JSON.stringify(config).includes(hex), 'the key is not in the configuration as JSON');
  t.equal(loadConfig({}).secretKey, null);
  t.throws(() => loadConfig({ TALLY_SECRET_KEY: 'hunter2' }), { message: /^TALLY_SECRET_KEY must be 32 random bytes/ });
});
