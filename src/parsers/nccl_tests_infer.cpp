// Op and rank inference over an nccl-tests table. Facts used (NVIDIA/nccl-tests a0b82b2, read
// for this file): printed size = max(send, recv) bytes and count = the op's per-call count
// (src/<test>.cu *GetCollByteCount), so size = count x ranks x bytes for all_gather, alltoall,
// reduce_scatter, gather, scatter, hypercube; busbw/algbw = 2(n-1)/n for all_reduce, (n-1)/n for
// all_gather, alltoall, reduce_scatter, gather, scatter, 1 otherwise (doc/PERFORMANCE.md).
#include "parsers/nccl_tests_infer.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>

namespace gpuvet::parsers {

namespace {

enum class Redop { reduction, none, any };
enum class Root { minus_one, rooted };
enum class Bus { two_n1_over_n, n1_over_n, one };

struct OpSpec {
  const char* name;
  Redop redop;
  Root root;
  bool count_per_rank;  // size = count x ranks x bytes per element
  Bus bus;
};

// sendrecv prints the -o operator ("sum") although it reduces nothing, hence Redop::any.
constexpr OpSpec kOps[] = {
    {"all_reduce", Redop::reduction, Root::minus_one, false, Bus::two_n1_over_n},
    {"all_gather", Redop::none, Root::minus_one, true, Bus::n1_over_n},
    {"alltoall", Redop::none, Root::minus_one, true, Bus::n1_over_n},
    {"reduce_scatter", Redop::reduction, Root::minus_one, true, Bus::n1_over_n},
    {"broadcast", Redop::none, Root::rooted, false, Bus::one},
    {"reduce", Redop::reduction, Root::rooted, false, Bus::one},
    {"sendrecv", Redop::any, Root::minus_one, false, Bus::one},
    {"gather", Redop::none, Root::rooted, true, Bus::n1_over_n},
    {"scatter", Redop::none, Root::rooted, true, Bus::n1_over_n},
    {"hypercube", Redop::none, Root::minus_one, true, Bus::one},
};
constexpr const char* kBinaryOnlyOps[] = {"alltoallv"};

const OpSpec* find_spec(std::string_view name) {
  for (const auto& s : kOps) {
    if (name == s.name) return &s;
  }
  return nullptr;
}

constexpr double kInf = std::numeric_limits<double>::infinity();

// Half of the last printed digit: nccl-tests getFloatStr() uses %.2f, then %.1f, %.0f, %.0e to fit 6.
double half_ulp(double v, NcclPrecision p) {
  if (p == NcclPrecision::json) return 5e-7 + v * 1e-12;
  if (v < 999.995) return 0.005;
  if (v < 9999.95) return 0.05;
  if (v < 99999.5) return 0.5;
  return v * 0.5;
}

// [lo, hi] that busbw/algbw lies in for every row, given the print rounding; nullopt when no
// row has both bandwidths above zero or the rows disagree.
struct Interval {
  double lo = 0;
  double hi = kInf;
};
std::optional<Interval> ratio_interval(const std::vector<core::CollectiveRow>& rows, NcclPrecision p) {
  Interval iv;
  bool any = false;
  auto take = [&](const core::CollectiveResult& r) {
    if (!r.algbw_gbps || !r.busbw_gbps) return;
    const double a = *r.algbw_gbps, b = *r.busbw_gbps;
    const double ea = half_ulp(a, p), eb = half_ulp(b, p);
    if (a - ea <= 0 || b - eb <= 0) return;
    iv.lo = std::max(iv.lo, (b - eb) / (a + ea));
    iv.hi = std::min(iv.hi, (b + eb) / (a - ea));
    any = true;
  };
  for (const auto& row : rows) {
    take(row.out_of_place);
    take(row.in_place);
  }
  if (!any || iv.lo > iv.hi) return std::nullopt;
  return iv;
}

// Range of n (ranks) whose bus factor falls in the interval; nullopt when none can.
std::optional<Interval> ranks_range(Bus bus, const Interval& r) {
  auto inv = [&](double x) {
    if (bus == Bus::two_n1_over_n) return x < 2 ? 2 / (2 - x) : kInf;
    return x < 1 ? 1 / (1 - x) : kInf;
  };
  if (bus == Bus::one) {
    if (r.lo <= 1 && 1 <= r.hi) return Interval{2, kInf};
    return std::nullopt;
  }
  Interval n{std::max(2.0, inv(r.lo)), inv(r.hi)};
  if (std::ceil(n.lo - 1e-9) > n.hi + 1e-9) return std::nullopt;
  return n;
}

// size / (count x bytes) when every row with a count agrees; 0 when unknown or inconsistent.
std::uint64_t size_per_count(const std::vector<core::CollectiveRow>& rows) {
  std::uint64_t k = 0;
  for (const auto& row : rows) {
    if (!row.count || *row.count == 0 || !row.type) continue;
    const auto ws = nccl_type_size_bytes(*row.type);
    if (!ws) return 0;
    const std::uint64_t unit = *row.count * static_cast<std::uint64_t>(*ws);
    if (row.size_bytes % unit != 0) return 0;
    const std::uint64_t this_k = row.size_bytes / unit;
    if (k != 0 && this_k != k) return 0;
    k = this_k;
  }
  return k;
}

bool fits(const OpSpec& s, const std::vector<core::CollectiveRow>& rows, const NcclColumns& columns,
          const core::Reading<int>& ranks, NcclPrecision precision) {
  // Old per-test headers name their test (see NcclColumns).
  if (columns.known && !(columns.has_redop && columns.has_root)) {
    const std::string_view n = s.name;
    if (!columns.has_redop && !columns.has_root && n != "all_gather") return false;
    if (columns.has_redop && !columns.has_root && n != "all_reduce" && n != "alltoall" && n != "reduce_scatter") return false;
    if (!columns.has_redop && columns.has_root && n != "broadcast") return false;
  }
  for (const auto& row : rows) {
    const bool reduction = row.redop && is_nccl_reduction(*row.redop);
    const bool blank = !row.redop && columns.known && columns.has_redop;
    if ((row.redop || blank) && s.redop == Redop::reduction && !reduction) return false;
    if ((row.redop || blank) && s.redop == Redop::none && reduction) return false;
    if (row.root && (s.root == Root::rooted) != (*row.root >= 0)) return false;
  }
  const std::uint64_t k = size_per_count(rows);
  // k = 1 fits a per-rank count only on a run known to have one rank (then it fits sendrecv too).
  const bool one_rank = ranks && *ranks == 1;
  if (k != 0 && s.count_per_rank && ((k < 2 && !one_rank) || (ranks && k != static_cast<std::uint64_t>(*ranks)))) return false;
  if (k != 0 && !s.count_per_rank && k != 1) return false;
  const auto iv = ratio_interval(rows, precision);
  if (!iv) return true;
  const auto n = ranks_range(s.bus, *iv);
  if (!n) return false;
  double fixed = 0;
  if (ranks) fixed = *ranks;
  if (s.count_per_rank && k >= 2) fixed = static_cast<double>(k);
  if (fixed > 0 && s.bus != Bus::one) return n->lo <= fixed + 1e-9 && fixed <= n->hi + 1e-9;
  return true;
}

std::string squash(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '_' || c == '-') continue;
    out.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
  }
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string fmt3(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

}  // namespace

std::optional<std::string> nccl_op_from_binary(std::string_view word) {
  const auto slash = word.find_last_of('/');
  if (slash != std::string_view::npos) word.remove_prefix(slash + 1);
  for (std::string_view suffix : {"_perf_mpi", "_perf"}) {
    if (word.size() > suffix.size() && word.substr(word.size() - suffix.size()) == suffix) {
      const auto op = word.substr(0, word.size() - suffix.size());
      if (find_spec(op)) return std::string(op);
      for (const char* extra : kBinaryOnlyOps) {
        if (op == extra) return std::string(op);
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string> find_nccl_binary_op(std::string_view line) {
  size_t at = 0;
  while ((at = line.find("_perf", at)) != std::string_view::npos) {
    size_t begin = at;
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(line[begin - 1])) || line[begin - 1] == '_')) --begin;
    size_t end = at + 5;
    if (line.substr(end, 4) == "_mpi") end += 4;
    const bool word_end = end >= line.size() || !(std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_');
    if (word_end) {
      if (auto op = nccl_op_from_binary(line.substr(begin, end - begin))) return op;
    }
    at += 5;
  }
  return std::nullopt;
}

std::vector<std::string> nccl_ops_fitting(const std::vector<core::CollectiveRow>& rows,
                                          const NcclColumns& columns, const core::Reading<int>& ranks,
                                          NcclPrecision precision) {
  std::vector<std::string> out;
  for (const auto& s : kOps) {
    if (fits(s, rows, columns, ranks, precision)) out.emplace_back(s.name);
  }
  return out;
}

std::string choose_nccl_op(const std::optional<std::string>& binary_op,
                           const std::vector<core::CollectiveRow>& rows, const NcclColumns& columns,
                           const core::Reading<int>& ranks, NcclPrecision precision,
                           const std::string& file_name, std::vector<std::string>& notes) {
  const auto candidates = nccl_ops_fitting(rows, columns, ranks, precision);
  if (binary_op) {
    if (find_spec(*binary_op) && std::find(candidates.begin(), candidates.end(), *binary_op) == candidates.end()) {
      notes.push_back("the log names " + *binary_op + "_perf but the table does not look like " + *binary_op +
                      " (it fits: " + (candidates.empty() ? std::string("none") : join(candidates)) + ")");
    }
    return *binary_op;
  }
  // On one rank alltoall and sendrecv print the same table (size = count x bytes, busbw = algbw x 0
  // or x 1 of nothing moved): neither the table nor a file name can tell them apart.
  const auto has = [&](const char* op) { return std::find(candidates.begin(), candidates.end(), op) != candidates.end(); };
  if (ranks && *ranks == 1 && has("alltoall") && has("sendrecv")) {
    notes.push_back("op unknown: a single-rank table cannot tell alltoall from sendrecv (it fits " + join(candidates) +
                    "); name the *_perf binary in the log");
    return "unknown";
  }
  if (candidates.size() == 1) {
    notes.push_back("op " + candidates[0] + " inferred from the table (no *_perf binary named in the log): "
                    "it is the only nccl-tests collective whose columns, redop/root cells, size/count "
                    "and busbw/algbw fit");
    return candidates[0];
  }
  if (candidates.empty()) {
    notes.push_back("op unknown: no *_perf binary named in the log and the table fits no nccl-tests collective");
    return "unknown";
  }
  const std::string name = squash(file_name);
  std::vector<std::string> named;
  for (const auto& c : candidates) {
    if (name.find(squash(c)) != std::string::npos) named.push_back(c);
  }
  // "allreduce.txt" also contains "reduce": keep only names no other match contains.
  std::vector<std::string> longest;
  for (const auto& c : named) {
    bool inside_other = false;
    for (const auto& o : named) {
      if (o != c && squash(o).find(squash(c)) != std::string::npos) inside_other = true;
    }
    if (!inside_other) longest.push_back(c);
  }
  if (longest.size() == 1) {
    notes.push_back("op " + longest[0] + " taken from the file name: the log names no *_perf binary and "
                    "the table alone fits " + join(candidates));
    return longest[0];
  }
  notes.push_back("op unknown: the log names no *_perf binary and the table fits " + join(candidates) +
                  "; name the binary (e.g. all_reduce_perf) in the log or the file name");
  return "unknown";
}

core::Reading<int> infer_nccl_ranks(const std::string& op, const std::vector<core::CollectiveRow>& rows,
                                    NcclPrecision precision, std::vector<std::string>& notes) {
  const OpSpec* s = find_spec(op);
  if (s == nullptr) return core::Reading<int>::absent("the log lists no ranks and the op is not known");
  const std::uint64_t k = size_per_count(rows);
  if (s->count_per_rank && k >= 2 && k < 1u << 20) {
    notes.push_back("ranks " + std::to_string(k) + " inferred from size/count: " + op +
                    " prints the per-rank count, so size = count x ranks x bytes per element");
    return static_cast<int>(k);
  }
  const auto iv = ratio_interval(rows, precision);
  if (s->bus == Bus::one || !iv) {
    return core::Reading<int>::absent("the log lists no ranks (no \"Rank N ... on HOST\" lines)");
  }
  const auto n = ranks_range(s->bus, *iv);
  if (!n || n->hi > 1e6 || std::ceil(n->lo - 1e-9) != std::floor(n->hi + 1e-9)) {
    return core::Reading<int>::absent("the log lists no ranks and busbw/algbw does not pin them down");
  }
  const int ranks = static_cast<int>(std::ceil(n->lo - 1e-9));
  notes.push_back("ranks " + std::to_string(ranks) + " inferred from busbw/algbw (" + fmt3(iv->lo) + ".." +
                  fmt3(iv->hi) + " over every row; " +
                  (s->bus == Bus::two_n1_over_n ? "2(n-1)/n" : "(n-1)/n") + " for " + op +
                  "): the log lists no devices");
  return ranks;
}

}  // namespace gpuvet::parsers
