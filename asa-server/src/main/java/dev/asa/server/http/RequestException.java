package dev.asa.server.http;

/** A problem found while reading the HTTP request itself (size, headers, content type). */
final class RequestException extends RuntimeException {
  private final Problem problem;

  RequestException(Problem problem) {
    super(problem.detail());
    this.problem = problem;
  }

  Problem problem() {
    return problem;
  }
}
