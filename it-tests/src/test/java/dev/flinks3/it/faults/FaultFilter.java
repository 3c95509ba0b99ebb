package dev.flinks3.it.faults;

import static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder.responseDefinition;

import com.github.tomakehurst.wiremock.extension.requestfilter.RequestFilterAction;
import com.github.tomakehurst.wiremock.extension.requestfilter.RequestWrapper;
import com.github.tomakehurst.wiremock.extension.requestfilter.StubRequestFilterV2;
import com.github.tomakehurst.wiremock.http.Body;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.flinks3.testserver.RequestKind;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Decides, once per request, which fault (if any) it gets: answers in the server's place for faults
 * that keep the request from the server, flips a byte of a request body, and hands faults on the
 * server's answer to the {@link FaultTransformer} under the request's serve-event id.
 */
final class FaultFilter implements StubRequestFilterV2 {

    private final List<FaultRule> rules;
    private final FaultTransformer transformer;

    FaultFilter(List<FaultRule> rules, FaultTransformer transformer) {
        this.rules = rules;
        this.transformer = transformer;
    }

    @Override
    public RequestFilterAction filter(Request request, ServeEvent serveEvent) {
        RequestKind kind = RequestKind.of(
                request.getMethod().getName(), request.getUrl(), request.containsHeader("x-amz-copy-source"));
        Set<String> headerNames = request.getAllHeaderKeys().stream()
                .map(name -> name.toLowerCase(Locale.ROOT))
                .collect(Collectors.toSet());
        for (FaultRule rule : rules) {
            if (rule.take(kind, headerNames)) {
                return apply(rule.fault(), request, serveEvent);
            }
        }
        return RequestFilterAction.continueWith(request);
    }

    private RequestFilterAction apply(Fault fault, Request request, ServeEvent serveEvent) {
        switch (fault.type()) {
            case ERROR_ANSWER:
                return RequestFilterAction.stopWith(responseDefinition()
                        .withStatus(fault.status())
                        .withHeader("Content-Type", "application/xml")
                        .withBody(fault.errorDocument())
                        .build());
            case RESET_BEFORE_RESPONSE:
                return RequestFilterAction.stopWith(responseDefinition()
                        .withFault(com.github.tomakehurst.wiremock.http.Fault.CONNECTION_RESET_BY_PEER)
                        .build());
            case CORRUPT_REQUEST_BODY:
                return RequestFilterAction.continueWith(RequestWrapper.create()
                        .transformBody(body -> new Body(Corruption.flipMiddleByte(body.asBytes())))
                        .wrap(request));
            default:
                transformer.expect(serveEvent.getId(), fault);
                return RequestFilterAction.continueWith(request);
        }
    }

    @Override
    public String getName() {
        return "flinks3-fault-filter";
    }
}
