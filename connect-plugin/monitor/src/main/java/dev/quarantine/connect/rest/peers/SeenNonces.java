package dev.quarantine.connect.rest.peers;

import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The nonces of the peer requests accepted within the clock skew window, so that a captured request sent again is
 * refused. A nonce is kept until the time its request stops being accepted anyway (signed time + allowed skew), then
 * forgotten. Bounded: when {@code capacity} nonces are still live, a new request is refused as overload rather than
 * forgetting a live nonce (which would let its request be replayed). Only requests with a valid signature get here,
 * so only a holder of the secret can fill it.
 */
final class SeenNonces {

    /** What {@link #firstUse} found. */
    enum Outcome { FIRST_USE, REPLAYED, FULL }

    private record Entry(long expiresAtMs, String nonce) {
    }

    private final int capacity;
    private final Map<String, Long> live = new HashMap<>();
    private final PriorityQueue<Entry> byExpiry = new PriorityQueue<>((a, b) -> Long.compare(a.expiresAtMs(),
            b.expiresAtMs()));

    SeenNonces(int capacity) {
        this.capacity = capacity;
    }

    /** Records {@code nonce} as used until {@code expiresAtMs}, unless it was used already or the cache is full. */
    synchronized Outcome firstUse(String nonce, long expiresAtMs, long nowMs) {
        forgetExpired(nowMs);
        if (live.containsKey(nonce)) {
            return Outcome.REPLAYED;
        }
        if (live.size() >= capacity) {
            return Outcome.FULL;
        }
        live.put(nonce, expiresAtMs);
        byExpiry.add(new Entry(expiresAtMs, nonce));
        return Outcome.FIRST_USE;
    }

    synchronized int size() {
        return live.size();
    }

    private void forgetExpired(long nowMs) {
        while (!byExpiry.isEmpty() && byExpiry.peek().expiresAtMs() < nowMs) {
            live.remove(byExpiry.poll().nonce());
        }
    }
}
