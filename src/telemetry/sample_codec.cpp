// Encoding of samples as deltas from the same GPU's previous sample (see sample_codec.hpp).
#include "telemetry/sample_codec.hpp"

#include <fmt/format.h>

#include <cmath>
#include <type_traits>

#include "telemetry/telemetry_schema.hpp"

namespace gpuvet::telemetry {

namespace {

enum FieldState : unsigned { kSame = 0, kChanged = 1, kAbsent = 2, kWhole = 3 };
static_assert(kEncodedFields <= 32, "SampleEncoder::GpuState::based has 32 bits");
constexpr std::size_t kNvlinkIndex = kEncodedFieldsSchema3 - 1;

std::uint32_t all_based(std::size_t fields) { return static_cast<std::uint32_t>((std::uint64_t{1} << fields) - 1); }
constexpr std::size_t state_bytes(std::size_t fields) { return (2 * fields + 7) / 8; }

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

bool get_varint(const unsigned char*& pos, const unsigned char* end, std::uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos == end) return false;
    const unsigned char byte = *pos++;
    v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
std::int64_t unzigzag(std::uint64_t v) { return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1); }

// Wrapping arithmetic: counters use the whole uint64 range.
std::int64_t wrap_sub(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}
std::int64_t wrap_add(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

// The stored integer of a reading; nullopt when absent or not representable.
template <class T>
std::optional<std::int64_t> to_stored(const core::Reading<T>& r, double scale) {
  if (!r.known()) return std::nullopt;
  if constexpr (std::is_floating_point_v<T>) {
    const double scaled = static_cast<double>(r.value()) * scale;
    if (!std::isfinite(scaled) || std::fabs(scaled) > 9.0e15) return std::nullopt;
    return static_cast<std::int64_t>(std::llround(scaled));
  } else {
    return static_cast<std::int64_t>(r.value());
  }
}

template <class T>
core::Reading<T> from_stored(std::int64_t v, double scale) {
  if constexpr (std::is_floating_point_v<T>) {
    // A division by a whole scale gives the double nearest the decimal (66.25, 689.917).
    return static_cast<T>(static_cast<double>(v) / scale);
  } else if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else {
    return static_cast<T>(v);
  }
}

// Calls visit(index, name, member, scale) for each sample field (not the NVLink count): the
// schema 2/3 fields at 0..18, the schema 4 fields from 20 on.
template <class Visit>
void for_each_encoded(Visit&& visit) {
  std::size_t index = 0;
  for_each_sample_field([&](std::string_view name, auto member) {
    visit(index, name, member, index < kRealScale.size() ? kRealScale[index] : 1.0);
    ++index;
  });
  index = kEncodedFieldsSchema3;
  for_each_schema4_field([&](std::string_view name, auto member) { visit(index++, name, member, 1.0); });
}

}  // namespace

std::size_t encoded_fields_for_schema(int version) { return version >= 4 ? kEncodedFields : kEncodedFieldsSchema3; }

SampleDecoder::SampleDecoder(int schema_version)
    : fields_(encoded_fields_for_schema(schema_version)),
      not_recorded_(not_recorded_reason(schema_version)) {}

std::string_view encoded_field_name(std::size_t index) {
  std::string_view out = kNvlinkField;
  for_each_encoded([&](std::size_t i, std::string_view name, auto, double) {
    if (i == index) out = name;
  });
  return out;
}

void SampleEncoder::encode(const core::TelemetrySample& sample, std::int64_t row_unix_ms, std::string& out,
                           std::vector<std::pair<std::string_view, std::string>>& absent) {
  auto [it, fresh] = last_.try_emplace(sample.gpu);
  if (fresh) it->second.based = fresh_based_ ? all_based(fields_) : 0;
  FieldValues& last = it->second.last;
  std::uint32_t& based = it->second.based;
  std::array<unsigned, kEncodedFields> state{};
  std::array<std::int64_t, kEncodedFields> delta{};
  const auto take = [&](std::size_t i, std::optional<std::int64_t> v) {
    const std::uint32_t bit = std::uint32_t{1} << i;
    if (!v) {
      state[i] = kAbsent;
    } else if ((based & bit) == 0) {
      state[i] = kWhole;
      delta[i] = *v;
      last[i] = *v;
      based |= bit;
    } else if (*v != last[i]) {
      state[i] = kChanged;
      delta[i] = wrap_sub(*v, last[i]);
      last[i] = *v;
    }
  };
  for_each_encoded([&](std::size_t i, std::string_view name, auto member, double scale) {
    if (i >= fields_) return;  // an older file's encoding: not stored, not an absence
    const auto& r = sample.*member;
    const auto v = to_stored(r, scale);
    take(i, v);
    if (!v) absent.emplace_back(name, r.known() ? std::string("not a finite number") : r.reason());
  });
  const std::size_t nv = kNvlinkIndex;
  take(nv, sample.nvlink.known() ? std::optional<std::int64_t>(static_cast<std::int64_t>(sample.nvlink->size())) : std::nullopt);
  if (!sample.nvlink.known()) absent.emplace_back(kNvlinkField, sample.nvlink.reason());

  put_varint(out, static_cast<std::uint64_t>(sample.gpu));
  put_varint(out, zigzag(sample.unix_ms - row_unix_ms));
  std::array<unsigned char, state_bytes(kEncodedFields)> bits{};
  for (std::size_t i = 0; i < fields_; ++i) bits[i / 4] |= static_cast<unsigned char>(state[i] << (2 * (i % 4)));
  out.append(reinterpret_cast<const char*>(bits.data()), state_bytes(fields_));
  for (std::size_t i = 0; i < fields_; ++i) {
    if (state[i] == kChanged || state[i] == kWhole) put_varint(out, zigzag(delta[i]));
  }
}

void SampleEncoder::reset() {
  for (auto& [gpu, s] : last_) s.based = 0;
  fresh_based_ = false;
}

std::optional<core::Error> SampleDecoder::decode_raw(const unsigned char*& pos, const unsigned char* end, int& gpu,
                                                     std::int64_t& unix_ms, std::uint64_t& absent_mask,
                                                     FieldValues*& values) {
  const auto bad = [](const char* what) { return core::input_error(fmt::format("malformed sample data ({})", what)); };
  std::uint64_t g = 0, u = 0;
  if (!get_varint(pos, end, g) || g > 1u << 20) return bad("GPU index");
  if (!get_varint(pos, end, u)) return bad("wall clock");
  const std::size_t nbytes = state_bytes(fields_);
  if (static_cast<std::size_t>(end - pos) < nbytes) return bad("field states");
  gpu = static_cast<int>(g);
  unix_ms = unzigzag(u);
  auto [it, fresh] = last_.try_emplace(gpu);
  if (fresh) it->second.fill(0);
  values = &it->second;
  const unsigned char* bits = pos;
  pos += nbytes;
  absent_mask = 0;
  for (std::size_t i = 0; i < fields_; ++i) {
    const unsigned state = (bits[i / 4] >> (2 * (i % 4))) & 3u;
    if (state == kAbsent) {
      absent_mask |= std::uint64_t{1} << i;
    } else if (state == kChanged || state == kWhole) {
      std::uint64_t d = 0;
      if (!get_varint(pos, end, d)) return bad("field value");
      (*values)[i] = state == kWhole ? unzigzag(d) : wrap_add((*values)[i], unzigzag(d));
    }
  }
  return std::nullopt;
}

void SampleDecoder::fill(const FieldValues& values, std::uint64_t absent_mask, core::TelemetrySample& out,
                         const std::array<std::string, kEncodedFields>& reasons) const {
  for_each_encoded([&](std::size_t i, std::string_view, auto member, double scale) {
    using T = std::decay_t<decltype((out.*member).value())>;
    if (i >= fields_ || (absent_mask & (std::uint64_t{1} << i))) {
      out.*member = core::Reading<T>::absent(reasons[i]);
    } else {
      out.*member = from_stored<T>(values[i], scale);
    }
  });
  const std::size_t nv = kNvlinkIndex;
  if (absent_mask & (std::uint64_t{1} << nv)) {
    out.nvlink = core::Reading<std::vector<core::NvLinkErrorSample>>::absent(reasons[nv]);
  } else {
    out.nvlink = std::vector<core::NvLinkErrorSample>{};  // the reader fills the links from the nvlink table
  }
}

}  // namespace gpuvet::telemetry
