package dev.quarantine.connect.rest.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

import jakarta.ws.rs.WebApplicationException;

/**
 * A request body read up to a limit: one byte more and the read fails with a 413, so a body without Content-Length
 * (chunked) takes at most the limit of memory, however long the client goes on sending. A body that announces its
 * length is refused before it is read ({@link RequestGuard}).
 */
final class BoundedEntity extends FilterInputStream {

    private final long maxBytes;
    private long read;

    BoundedEntity(InputStream body, long maxBytes) {
        super(body);
        this.maxBytes = maxBytes;
    }

    @Override
    public int read() throws IOException {
        int next = super.read();
        if (next != -1) {
            count(1);
        }
        return next;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        // never more than one byte past the limit, so the limit is all a body can take
        int wanted = (int) Math.min(length, maxBytes + 1 - read);
        int n = super.read(buffer, offset, Math.max(wanted, 1));
        if (n > 0) {
            count(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(Math.min(n, maxBytes + 1 - read));
        count(skipped);
        return skipped;
    }

    private void count(long bytes) {
        read += bytes;
        if (read > maxBytes) {
            throw new WebApplicationException(Answers.refusal(RequestGuard.Outcome.TOO_LARGE.status,
                    RequestGuard.Outcome.TOO_LARGE.category, RequestGuard.tooLarge(),
                    RequestGuard.tooLarge() + " (no Content-Length; cut while read)"));
        }
    }
}
