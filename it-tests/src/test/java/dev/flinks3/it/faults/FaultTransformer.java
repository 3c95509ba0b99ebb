package dev.flinks3.it.faults;

import com.github.tomakehurst.wiremock.extension.ResponseTransformerV2;
import com.github.tomakehurst.wiremock.http.HttpHeader;
import com.github.tomakehurst.wiremock.http.Response;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Spoils the server's answer to a request the {@link FaultFilter} picked: holds it back, replaces it
 * with a connection reset, ends it cleanly halfway through the body, asks the {@link MidBodyResetRelay}
 * to reset it halfway through the body, or flips a byte of the body (optionally after announcing the
 * intact body's CRC32C).
 */
final class FaultTransformer implements ResponseTransformerV2 {

    private final Map<UUID, Fault> expected = new ConcurrentHashMap<>();

    /** Registers the fault for the answer to the request of serve event {@code id}. */
    void expect(UUID id, Fault fault) {
        expected.put(id, fault);
    }

    @Override
    public Response transform(Response response, ServeEvent serveEvent) {
        Fault fault = expected.remove(serveEvent.getId());
        if (fault == null) {
            return response;
        }
        Response.Builder spoilt = Response.Builder.like(response).but();
        switch (fault.type()) {
            case DELAY_FIRST_BYTE:
                return spoilt.incrementInitialDelay(fault.delay().toMillis()).build();
            case DROP_RESPONSE:
                return spoilt.fault(com.github.tomakehurst.wiremock.http.Fault.CONNECTION_RESET_BY_PEER)
                        .build();
            case RESET_MID_BODY:
                return spoilt.headers(response.getHeaders()
                                .plus(new HttpHeader(
                                        MidBodyResetRelay.HEADER, String.valueOf(response.getBody().length / 2))))
                        .build();
            case CLOSE_MID_BODY:
                return spoilt.body(Corruption.breakingHalfway(response.getBody()))
                        .build();
            case CORRUPT_RESPONSE_BODY:
                return spoilt.body(Corruption.flipMiddleByte(response.getBody()))
                        .build();
            case CORRUPT_CHECKSUMMED_RESPONSE_BODY:
                return spoilt.headers(response.getHeaders()
                                .plus(new HttpHeader("x-amz-checksum-crc32c", Corruption.crc32c(response.getBody()))))
                        .body(Corruption.flipMiddleByte(response.getBody()))
                        .build();
            default:
                throw new IllegalStateException("not a fault on the answer: " + fault);
        }
    }

    @Override
    public boolean applyGlobally() {
        return true;
    }

    @Override
    public String getName() {
        return "flinks3-fault-transformer";
    }
}
