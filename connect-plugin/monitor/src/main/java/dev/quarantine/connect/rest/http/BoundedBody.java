package dev.quarantine.connect.rest.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * The body of another worker's answer, read into memory up to a limit: a longer one cancels the exchange and fails
 * it, so an answer (from a misbehaving or forged peer) can never take more of the heap than the limit.
 */
public final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {

    private final long maxBytes;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private Flow.Subscription subscription;

    BoundedBody(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** A handler reading every answer's body with this limit. */
    public static HttpResponse.BodyHandler<byte[]> handler(long maxBytes) {
        return info -> new BoundedBody(maxBytes);
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        for (ByteBuffer item : items) {
            if (body.isDone()) {
                return;
            }
            if (bytes.size() + (long) item.remaining() > maxBytes) {
                subscription.cancel();
                body.completeExceptionally(new IOException("an answer of more than " + maxBytes + " bytes"));
                return;
            }
            byte[] chunk = new byte[item.remaining()];
            item.get(chunk);
            bytes.write(chunk, 0, chunk.length);
        }
    }

    @Override
    public void onError(Throwable error) {
        body.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        body.complete(bytes.toByteArray());
    }
}
