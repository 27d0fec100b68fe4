import { isIP, isIPv4 as nodeIsIPv4, isIPv6 as nodeIsIPv6, BlockList } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isIPv4, isIPv6, isLoopbackAddress } from './ip-address.js';

// node's own reading, as the independent judge of these texts.
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');
const nodeLoopback = (text: string): boolean => {
  const family = isIP(text);
  return family !== 0 && loopback.check(text, family === 6 ? 'ipv6' : 'ipv4');
};

const TEXTS = [
  '127.0.0.1', '127.255.255.254', '127.1', '127.0.0.01', '0127.0.0.1', '128.0.0.1', '10.0.0.1', '255.255.255.255', '256.0.0.1', '1.2.3', '1.2.3.4.5', ' 1.2.3.4', '',
  '::1', '0:0:0:0:0:0:0:1', '::0:1', '::2', '::', '::ffff:127.0.0.1', '::FFFF:127.0.0.9', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:128.0.0.1',
  'fe80::1%eth0', 'fe80::1', '2001:db8::1', '2001:db8:0:0:0:0:2:1', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', ':::1', '::1::', 'g::1', '[::1]', 'localhost', 'example.com', '1::2::3',
];

describe('IP addresses read without node:net', () => {
  it.each(TEXTS)('%j is read as node:net reads it', (text) => {
    expect({ v4: isIPv4(text), v6: isIPv6(text), loopback: isLoopbackAddress(text) }).toEqual({ v4: nodeIsIPv4(text), v6: nodeIsIPv6(text), loopback: nodeLoopback(text) });
  });
});
