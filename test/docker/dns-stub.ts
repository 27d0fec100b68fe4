import { createSocket, type Socket } from 'node:dgram';

/**
 * A DNS server on the loopback that plays Docker's embedded one for the
 * nginx test: it answers an A query for each name in `names` with its
 * addresses (so `mock` resolves to every replica, as Docker answers a
 * service name) and NXDOMAIN for any other name (RFC 1035 §4.1). Only what
 * nginx's resolver sends is understood: one question per query, over UDP.
 */
export interface DnsStub {
  port: number;
  close(): Promise<void>;
}

const TYPE_A = 1;
const CLASS_IN = 1;

export async function startDnsStub(names: Record<string, string[]>): Promise<DnsStub> {
  const socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    const answer = answerFor(query, names);
    if (answer) socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  return { port: socket.address().port, close: () => closeSocket(socket) };
}

function closeSocket(socket: Socket): Promise<void> {
  return new Promise((resolve) => socket.close(() => resolve()));
}

/** The response to one query, or undefined for what is not a query of one question. */
function answerFor(query: Buffer, names: Record<string, string[]>): Buffer | undefined {
  if (query.length < 12 || query.readUInt16BE(4) !== 1) return undefined;
  const question = readQuestion(query, 12);
  if (!question) return undefined;
  const addresses = names[question.name.toLowerCase()];
  const records = addresses && question.type === TYPE_A && question.class === CLASS_IN ? addresses : [];
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0); // the query's id
  // QR, AA, RD copied; RCODE 3 (NXDOMAIN) for an unknown name.
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | (addresses ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  return Buffer.concat([header, query.subarray(12, question.end), ...records.map(aRecord)]);
}

function readQuestion(query: Buffer, start: number): { name: string; type: number; class: number; end: number } | undefined {
  const labels: string[] = [];
  let at = start;
  while (at < query.length && query[at] !== 0) {
    const length = query[at] as number;
    if (length > 63) return undefined; // a compression pointer: not in a question nginx sends
    labels.push(query.toString('latin1', at + 1, at + 1 + length));
    at += 1 + length;
  }
  if (at + 5 > query.length) return undefined;
  return { name: labels.join('.'), type: query.readUInt16BE(at + 1), class: query.readUInt16BE(at + 3), end: at + 5 };
}

/** An A record naming the question (pointer to offset 12), TTL 1 s. */
function aRecord(address: string): Buffer {
  const record = Buffer.alloc(16);
  record.writeUInt16BE(0xc00c, 0);
  record.writeUInt16BE(TYPE_A, 2);
  record.writeUInt16BE(CLASS_IN, 4);
  record.writeUInt32BE(1, 6);
  record.writeUInt16BE(4, 10);
  address.split('.').forEach((octet, i) => record.writeUInt8(Number(octet), 12 + i));
  return record;
}
