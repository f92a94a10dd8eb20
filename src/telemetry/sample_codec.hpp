// The compact form of samples in the burn-in database (internal to src/telemetry): the samples of
// one tick share a row, and each sample is its GPU, its wall-clock offset, two bits per field
// (unchanged / changed / absent) and, for a changed field, the zigzag varint of the difference
// from that GPU's previous value. Real fields are stored as whole multiples of a fixed resolution
// (kRealScale steps per unit). A keyframe (SampleEncoder::reset, schema 3) stores each known
// field as its value instead (fourth field state), so the rows from a keyframe on decode without
// the rows before it: the store prunes old rows down to a keyframe. Schema 4 appends nine fields
// after the NVLink count (telemetry_schema.hpp kSchema4*Fields); encoder and decoder are told the
// file's version, and a schema 2/3 file's samples read those fields as absent. Version history in
// docs/measurement.md "The database".
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/telemetry.hpp"

namespace gpuvet::telemetry {

// The number of encoded fields: the sample fields of telemetry_schema.hpp, then the NVLink count
// (schemas 2 and 3 end there), then the schema 4 fields.
inline constexpr std::size_t kEncodedFields = 29;
inline constexpr std::size_t kEncodedFieldsSchema3 = 20;
// How many fields a file of schema `version` encodes per sample.
std::size_t encoded_fields_for_schema(int version);

// One past value per field and GPU: the encoder's and decoder's shared state.
using FieldValues = std::array<std::int64_t, kEncodedFields>;

class SampleEncoder {
 public:
  // `fields`: encoded_fields_for_schema(the file's version).
  explicit SampleEncoder(std::size_t fields = kEncodedFields) : fields_(fields) {}
  // Appends `sample` to `out`. `absent` receives (field, reason) for each absent field, including
  // a real value that is not finite or out of range ("not a finite number").
  void encode(const core::TelemetrySample& sample, std::int64_t row_unix_ms, std::string& out,
              std::vector<std::pair<std::string_view, std::string>>& absent);
  // From now on, each GPU's next known value of every field (and of GPUs not seen yet) is stored
  // whole, not as a difference: the next row starts a keyframe.
  void reset();

 private:
  struct GpuState {
    FieldValues last{};
    std::uint32_t based = 0;  // bit i: last[i] is what the decoder holds for field i
  };
  std::size_t fields_;
  std::map<int, GpuState> last_;
  bool fresh_based_ = true;   // before the first reset a new GPU starts from zeros, as the decoder
};

class SampleDecoder {
 public:
  // `schema_version`: the file's; fields it does not encode read as absent ("not recorded ...").
  explicit SampleDecoder(int schema_version);
  // Reads the next sample of a row from [*pos, end), advancing *pos. Absent fields get the reason
  // reason(gpu, field). Errors: bad_input when the bytes are not a well-formed sample.
  template <class Reason>
  std::optional<core::Error> decode(const unsigned char*& pos, const unsigned char* end, double t_s,
                                    std::int64_t row_unix_ms, core::TelemetrySample& out, Reason&& reason);

 private:
  std::optional<core::Error> decode_raw(const unsigned char*& pos, const unsigned char* end, int& gpu,
                                        std::int64_t& unix_ms, std::uint64_t& absent_mask, FieldValues*& values);
  void fill(const FieldValues& values, std::uint64_t absent_mask, core::TelemetrySample& out,
            const std::array<std::string, kEncodedFields>& reasons) const;
  std::size_t fields_;
  std::string not_recorded_;
  std::map<int, FieldValues> last_;
};

// Name of encoded field `index` (a sample column, or "nvlink").
std::string_view encoded_field_name(std::size_t index);

template <class Reason>
std::optional<core::Error> SampleDecoder::decode(const unsigned char*& pos, const unsigned char* end, double t_s,
                                                 std::int64_t row_unix_ms, core::TelemetrySample& out, Reason&& reason) {
  int gpu = 0;
  std::int64_t unix_ms = 0;
  std::uint64_t absent_mask = 0;
  FieldValues* values = nullptr;
  if (auto e = decode_raw(pos, end, gpu, unix_ms, absent_mask, values)) return e;
  out.gpu = gpu;
  out.t_s = t_s;
  out.unix_ms = row_unix_ms + unix_ms;
  std::array<std::string, kEncodedFields> reasons;
  for (std::size_t i = 0; i < kEncodedFields; ++i) {
    if (i >= fields_) {
      reasons[i] = not_recorded_;
    } else if (absent_mask & (std::uint64_t{1} << i)) {
      reasons[i] = reason(gpu, encoded_field_name(i));
    }
  }
  fill(*values, absent_mask, out, reasons);
  return std::nullopt;
}

}  // namespace gpuvet::telemetry
