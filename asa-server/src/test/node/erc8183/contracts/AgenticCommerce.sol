// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// The ERC-20 calls the job contract makes.
interface IERC20Minimal {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @title AgenticCommerce
/// @notice ERC-8183 (Agentic Commerce, draft of 2026-02-25): a job whose budget is held in escrow
/// in one ERC-20 token, moving Open -> Funded -> Submitted -> Completed | Rejected | Expired. Only
/// the job's evaluator completes it; the client is refunded on rejection and, after `expiredAt`,
/// by `claimRefund`, which anyone may call.
/// @dev Written for the ASA server's erc8183 escrow binding and its tests. No platform fee, and no
/// hooks: `createJob` refuses a hook address (the draft makes both optional).
contract AgenticCommerce {
    enum Status { Open, Funded, Submitted, Completed, Rejected, Expired }

    struct Job {
        address client;
        address provider;
        address evaluator;
        string description;
        uint256 budget;
        uint256 expiredAt;
        Status status;
    }

    IERC20Minimal public immutable token;
    uint256 public jobCount;
    mapping(uint256 => Job) private jobs;

    event JobCreated(uint256 indexed jobId, address indexed client, address indexed provider, address evaluator, uint256 expiredAt, string description);
    event ProviderSet(uint256 indexed jobId, address provider);
    event BudgetSet(uint256 indexed jobId, uint256 amount);
    event JobFunded(uint256 indexed jobId, uint256 amount);
    event JobSubmitted(uint256 indexed jobId, bytes32 deliverable);
    event JobCompleted(uint256 indexed jobId, bytes32 reason);
    event JobRejected(uint256 indexed jobId, address indexed rejector, bytes32 reason);
    event JobExpired(uint256 indexed jobId);
    event PaymentReleased(uint256 indexed jobId, address indexed provider, uint256 amount);
    event Refunded(uint256 indexed jobId, address indexed client, uint256 amount);

    error NoSuchJob(uint256 jobId);
    error WrongStatus(uint256 jobId, Status status);
    error NotAllowed(uint256 jobId, address caller);
    error InvalidArgument(string what);
    error BudgetMismatch(uint256 budget, uint256 expected);
    error NotExpired(uint256 expiredAt);
    error TokenTransferFailed();

    constructor(IERC20Minimal token_) {
        if (address(token_) == address(0)) revert InvalidArgument("token");
        token = token_;
    }

    function createJob(address provider, address evaluator, uint256 expiredAt, string calldata description, address hook)
        external
        returns (uint256 jobId)
    {
        if (evaluator == address(0)) revert InvalidArgument("evaluator");
        if (expiredAt <= block.timestamp) revert InvalidArgument("expiredAt");
        if (hook != address(0)) revert InvalidArgument("hook");
        jobId = ++jobCount;
        jobs[jobId] = Job(msg.sender, provider, evaluator, description, 0, expiredAt, Status.Open);
        emit JobCreated(jobId, msg.sender, provider, evaluator, expiredAt, description);
    }

    function setProvider(uint256 jobId, address provider) external {
        Job storage job = existing(jobId);
        requireStatus(jobId, job, Status.Open);
        if (msg.sender != job.client) revert NotAllowed(jobId, msg.sender);
        if (job.provider != address(0) || provider == address(0)) revert InvalidArgument("provider");
        job.provider = provider;
        emit ProviderSet(jobId, provider);
    }

    function setBudget(uint256 jobId, uint256 amount) external {
        Job storage job = existing(jobId);
        requireStatus(jobId, job, Status.Open);
        if (msg.sender != job.client && (msg.sender != job.provider || job.provider == address(0))) {
            revert NotAllowed(jobId, msg.sender);
        }
        job.budget = amount;
        emit BudgetSet(jobId, amount);
    }

    function fund(uint256 jobId, uint256 expectedBudget) external {
        Job storage job = existing(jobId);
        requireStatus(jobId, job, Status.Open);
        if (msg.sender != job.client) revert NotAllowed(jobId, msg.sender);
        if (job.budget == 0) revert InvalidArgument("budget");
        if (job.provider == address(0)) revert InvalidArgument("provider");
        if (job.budget != expectedBudget) revert BudgetMismatch(job.budget, expectedBudget);
        job.status = Status.Funded;
        emit JobFunded(jobId, job.budget);
        if (!token.transferFrom(msg.sender, address(this), job.budget)) revert TokenTransferFailed();
    }

    function submit(uint256 jobId, bytes32 deliverable) external {
        Job storage job = existing(jobId);
        requireStatus(jobId, job, Status.Funded);
        if (msg.sender != job.provider) revert NotAllowed(jobId, msg.sender);
        job.status = Status.Submitted;
        emit JobSubmitted(jobId, deliverable);
    }

    function complete(uint256 jobId, bytes32 reason) external {
        Job storage job = existing(jobId);
        requireStatus(jobId, job, Status.Submitted);
        if (msg.sender != job.evaluator) revert NotAllowed(jobId, msg.sender);
        job.status = Status.Completed;
        emit JobCompleted(jobId, reason);
        emit PaymentReleased(jobId, job.provider, job.budget);
        if (!token.transfer(job.provider, job.budget)) revert TokenTransferFailed();
    }

    function reject(uint256 jobId, bytes32 reason) external {
        Job storage job = existing(jobId);
        Status status = job.status;
        if (status == Status.Open) {
            if (msg.sender != job.client) revert NotAllowed(jobId, msg.sender);
        } else if (status == Status.Funded || status == Status.Submitted) {
            if (msg.sender != job.evaluator) revert NotAllowed(jobId, msg.sender);
        } else {
            revert WrongStatus(jobId, status);
        }
        job.status = Status.Rejected;
        emit JobRejected(jobId, msg.sender, reason);
        if (status != Status.Open) refund(jobId, job);
    }

    /// Anyone may call it once the job has expired; on a job already rejected or expired it does
    /// nothing, so a retried call cannot fail or pay twice.
    function claimRefund(uint256 jobId) external {
        Job storage job = existing(jobId);
        Status status = job.status;
        if (status == Status.Rejected || status == Status.Expired) return;
        if (status != Status.Funded && status != Status.Submitted) revert WrongStatus(jobId, status);
        if (block.timestamp < job.expiredAt) revert NotExpired(job.expiredAt);
        job.status = Status.Expired;
        emit JobExpired(jobId);
        refund(jobId, job);
    }

    function getJob(uint256 jobId) external view returns (Job memory) {
        return jobs[jobId];
    }

    function existing(uint256 jobId) private view returns (Job storage job) {
        job = jobs[jobId];
        if (job.client == address(0)) revert NoSuchJob(jobId);
    }

    function requireStatus(uint256 jobId, Job storage job, Status expected) private view {
        if (job.status != expected) revert WrongStatus(jobId, job.status);
    }

    function refund(uint256 jobId, Job storage job) private {
        emit Refunded(jobId, job.client, job.budget);
        if (!token.transfer(job.client, job.budget)) revert TokenTransferFailed();
    }
}
