// What the forms send and what they say before sending: each form's values become the call's
// input through the contract's own schema, and what the core would refuse is said on the field,
// in the console's words.
import { describe, expect, it } from 'vitest';
import { formResolver } from '../../../renderer/data/contract';
import { keyForm } from '../../../renderer/screens/keys/key-form';
import { monitorForm, monitorFormStart } from '../../../renderer/screens/overview/monitor-form-values';
import { PROFILE_FORM_START, profileForm } from '../../../renderer/screens/profiles/profile-form';

const options = { fields: {}, shouldUseNativeValidation: false } as const;

describe('the monitor form', () => {
  const start = () => ({ ...monitorFormStart(undefined, 'embedded-mock'), name: ' Production ' });

  it('sends its fields as monitors:add takes them, the synthetic check and a webhook only when asked for', async () => {
    const plain = await formResolver(monitorForm)(start(), undefined, options);
    expect(plain.errors).toEqual({});
    expect(plain.values).toEqual({
      name: 'Production',
      profileId: 'embedded-mock',
      healthEveryS: 60,
      desktop: true,
      muted: false,
      public: false,
      keepWebhooks: [],
    });
    const full = await formResolver(monitorForm)(
      {
        ...start(),
        withSynthetic: true,
        synthetic: {
          ...start().synthetic,
          agents: 'echo, helpdesk ,',
          source: 'suite',
          suite: ' a.yaml ',
          cases: '',
        },
        webhooks: [{ url: ' https://hooks.example.com/x ', format: 'slack' }],
      },
      undefined,
      options,
    );
    expect(full.values).toMatchObject({
      synthetic: { everyMinutes: 5, agents: ['echo', 'helpdesk'], suite: 'a.yaml' },
      webhooks: [{ url: 'https://hooks.example.com/x', format: 'slack' }],
    });
  });

  it('says what the contract refuses on the field it belongs to', async () => {
    const result = await formResolver(monitorForm)(
      {
        ...start(),
        healthEveryS: '5',
        withSynthetic: true,
        synthetic: { ...start().synthetic, everyMinutes: '1.5', agents: 'x'.repeat(201) },
      },
      undefined,
      options,
    );
    expect(result.values).toEqual({});
    expect(result.errors.healthEveryS?.message).toBe('At least 10.');
    expect(result.errors.synthetic?.everyMinutes?.message).toBe('A whole number.');
    expect(JSON.stringify(result.errors.synthetic?.agents)).toContain('At most 200 characters.');
  });
});

describe('the key form', () => {
  const values = { name: 'staging', secret: '', baseUrl: 'https://', sessionOnly: false };

  it('words a key of the wrong shape, and wants a server', async () => {
    const shape = await formResolver(keyForm)({ ...values, secret: 'ams_tooShort' }, undefined, options);
    expect(shape.errors.secret?.message).toBe('A key is 36 characters long; this is 12.');
    expect(shape.errors.baseUrl).toBeDefined();
  });

  it('sends the key trimmed, for the server typed', async () => {
    const secret = `ams_${'a'.repeat(32)}`;
    const result = await formResolver(keyForm)(
      { ...values, secret: ` ${secret} `, baseUrl: ' https://agents.example.com ' },
      undefined,
      options,
    );
    expect(result.values).toEqual({
      name: 'staging',
      secret,
      baseUrl: 'https://agents.example.com',
      sessionOnly: false,
    });
  });
});

describe('the profile form', () => {
  it('sends a CA certificate only when one was given, and leaves the address to the core', async () => {
    const result = await formResolver(profileForm)(
      {
        ...PROFILE_FORM_START,
        name: 'Plain',
        baseUrl: ' http://agents.example.com ',
        keyId: 'k1',
        caCertPem: '  ',
      },
      undefined,
      options,
    );
    expect(result.values).toEqual({
      name: 'Plain',
      baseUrl: 'http://agents.example.com',
      keyId: 'k1',
      proxy: '',
    });
  });

  it('sends the proxy as the profile keeps it, and its password only when one was typed for a proxy URL', async () => {
    const values = async (patch: Partial<typeof PROFILE_FORM_START>) =>
      (
        await formResolver(profileForm)(
          {
            ...PROFILE_FORM_START,
            name: 'Office',
            baseUrl: 'https://agents.example.com',
            keyId: 'k1',
            ...patch,
          },
          undefined,
          options,
        )
      ).values as Record<string, unknown>;
    expect(
      await values({ proxyMode: 'none', proxyUrl: 'http://stale:1', proxyPassword: 'pw' }),
    ).toMatchObject({
      proxy: 'none',
    });
    expect(await values({ proxyMode: 'none', proxyPassword: 'pw' })).not.toHaveProperty('proxyPassword');
    expect(
      await values({ proxyMode: 'url', proxyUrl: ' http://alice@proxy.corp:3128 ', proxyPassword: 'pw' }),
    ).toMatchObject({ proxy: 'http://alice@proxy.corp:3128', proxyPassword: 'pw' });
    expect(await values({ proxyMode: 'url', proxyUrl: 'http://proxy.corp:3128' })).not.toHaveProperty(
      'proxyPassword',
    );
  });
});
