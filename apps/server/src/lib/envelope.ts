import type { NoticeKey } from '@mutenet/contract';
import type { FastifyRequest } from 'fastify';

/** A success envelope, its `msg` in the request's language. */
export function ok<T>(request: FastifyRequest, data: T, notice: NoticeKey = 'OK') {
  return { code: 0, msg: request.t(notice), data };
}
