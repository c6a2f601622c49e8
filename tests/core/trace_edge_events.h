// SPDX-License-Identifier: GPL-3.0-or-later
// Trace events at the edges of JSON for test_trace_event_fields (a header of their own because
// moc cannot tokenise raw strings holding escaped quotes).
#pragma once

#include <QStringList>

#include <string>
#include <vector>

namespace lse::test {

// Whole events at the edges of JSON, each to be read alike by both paths.
inline QStringList edgeTraceEvents()
{
    return {
        // Escapes in names and keys, a surrogate pair (U+1F600), raw UTF-8, \/.
        R"({"ph":"X","cat":"kernel","name":"k\u00e9\ud83d\ude00\"\\\/\b\f\n\r\t é😀","ts":1,"dur":2,"args":{"corr\u0065lation":3}})",
        R"({"p\u0068":"\u0058","c\u0061t":"\u006bernel","name":"x","ts":1,"dur":2})",
        // What the reader leaves to QJsonDocument.
        R"({"ph":"X","cat":"kernel","name":"nul \u0000 inside","ts":1,"dur":2})",
        R"({"ph":"X","cat":"kernel","name":"lone \ud800","ts":1,"dur":2})",
        R"({"ph":"X","cat":"kernel","name":"lone \udc00 low","ts":1,"dur":2})",
        R"({"ph":"X","cat":"kernel","name":"nonchar \uffff","ts":1,"dur":2})",
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"raw \x01 control\",\"ts\":1,\"dur\":2}",
        R"({"ph":"X","cat":"kernel","name":"dup","name":"dup2","ts":1,"dur":2})",
        R"({"ph":"X","cat":"kernel","name":"k","ts":1,"dur":2,"args":{"stream":1,"stream":2}})",
        R"({"ph":"X","cat":"kernel","name":"k","ts":"12.5","dur":" 2 "})",
        R"({"ph":"X","cat":"kernel","name":"k","ts":1.,"dur":2})",
        R"({"ph":"X","cat":"kernel","name":"k","ts":1,"dur":2,"other":1e400})",
        R"({"ph":"X","cat":"kernel","name":"k","ts":1,"dur":2,"other":1e-400})",
        R"({"ph":"X","cat":"kernel","name":"k","ts":1.5e3,"dur":2E+1,"pid":-0,"tid":1e20})",
        R"({"ph":"X","cat":"kernel","name":"k","ts":123456789012345678901234,"dur":0.1})",
        R"({"ph":"X","cat":"kernel","name":"k","ts":1,"dur":2,"args":{"grid":[1,"2",-3,4.5,5],"block":7}})",
        R"({"ph":"X","cat":"kernel","name":"k","ts":1,"dur":2,"args":{"device":null,"stream":null,"correlation":9007199254740992}})",
        R"({"ph":"X","cat":"kernel","name":"k","ts":1,"dur":2,"args":{"correlation":9007199254740993}})",
        R"({"ph":"X","cat":"kernel","name":"k","ts":1,"dur":2,"args":{"correlation":-1}})",
        R"({"ph":"X","cat":"gpu_memcpy","name":"m","ts":1,"dur":2,"args":{"bytes":1024}})",
        R"({"ph":"X","cat":"cpu_op","name":"aten::mm","ts":1,"dur":2,"tid":"thread \u00e9","args":{"Input Dims":[[2,3],5,[[1]],[],["x",-1,2.5]],"Input type":["float",3,null,"c10::Half"]}})",
        R"({"ph":"X","cat":"cpu_op","name":"aten::mm","ts":1,"dur":2,"args":{"Input Dims":null}})",
        R"({"ph":"X","cat":"cpu_op","name":"aten::mm","ts":1,"dur":2,"args":{"Input Dims":{}}})",
        R"({"ph":"X","cat":"cpu_op","name":"aten::mm","ts":1,"dur":2,"args":{"Input type":"float"}})",
        R"({"ph":"X","cat":"cpu_op","name":7,"ts":1,"dur":2})",
        R"({"ph":"X","name":"legacy op","ts":1,"dur":2,"tid":1,"pid":"CPU functions","args":{}})",
        R"({"ph":"X","cat":null,"name":"null cat","ts":1,"dur":2})",
        R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#12","ts":0,"dur":100,"args":{"External id":-5}})",
        R"({"ph":"i","cat":"kernel","name":"instant","ts":1,"s":"t"})",
        R"({"ph":"f","id":1,"bp":"e","ts":1})",
        R"({"ph":"X","cat":"python_function","name":"x","ts":1,"dur":2,"args":{"deep":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}})",
        R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","ts":1,"dur":1,"tid":4.7,"args":{"correlation":3}})",
        R"(  {"ph":"X","cat":"kernel","name":"spaces","ts":1,"dur":2}  )",
        R"({"ph":"X","cat":"kernel","name":"k","ts":1,"dur":2,"args":{"correlation":true}})",
        R"({"ph":"X","cat":"kernel","name":"k","ts":1,"dur":-2})",
        R"({"ph":1,"cat":"kernel","name":"k","ts":1,"dur":2})",
        R"({"ph":"X","cat":"kernel","name":"k","ts":1,"dur":2,"args":[]})",
        // What a producer records itself (args.flops, bytes, class) and the process names of ranks.
        R"({"ph":"X","cat":"cpu_op","name":"qkv","ts":1,"dur":2,"args":{"class":"matmul","flops":12,"bytes":2.5}})",
        R"({"ph":"X","cat":"cpu_op","name":"x","ts":1,"dur":2,"args":{"class":7,"flops":null,"bytes":0}})",
        R"({"ph":"X","cat":"cpu_op","name":"x","ts":1,"dur":2,"args":{"class":"no such class","flops":1e300}})",
        R"({"ph":"X","cat":"cpu_op","name":"x","ts":1,"dur":2,"args":{"flops":"12"}})",
        R"({"ph":"X","cat":"cpu_op","name":"x","ts":1,"dur":2,"args":{"bytes":-1}})",
        R"({"ph":"X","cat":"cpu_op","name":"x","ts":1,"dur":2,"args":{"flops":1e400}})",
        R"({"ph":"X","cat":"cpu_op","name":"x","ts":1,"dur":2,"args":{"flops":1,"flops":2}})",
        R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#3","ts":0,"dur":9,"args":{"flops":"not read"}})",
        R"({"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"rank 1"}})",
        R"({"name":"process_name","ph":"M","pid":1,"args":{"name":7}})",
        R"({"name":"process_name","ph":"M","pid":1,"args":[]})",
        R"({"name":"process_name","ph":"M","pid":1,"args":{"name":"rank 1","name":"rank 2"}})",
        R"({"name":"process_name","ph":"M","pid":1,"args":{"name":"bad \ud800"}})",
        R"({"ph":"X","cat":"kernel","name":"k","ts":1,"dur":2,"x":tru})",
        R"({"ph":"X","cat":"kernel","name":"k","ts":01,"dur":2})",
    };
}

// Events the purpose-built reader leaves to QJsonDocument.
inline std::vector<const char *> refusedTraceEvents()
{
    return {R"({"name":"\u0000"})", R"({"name":"\ud800x"})", R"({"a":1.})", R"({"a":01})",
                                    R"({"a":1e400})", R"({"ts":1,"ts":2})", R"({"args":{"stream":1,"stream":1}})",
                                    R"({"a":1} x)", R"({"a":[1,]})", R"({"a":1,})", "{\"a\":\"\x01\"}", R"([1])"};
}

// A trace of one kernel whose name holds `bytes` as they are (invalid UTF-8 and the like).
inline std::string traceWithNameBytes(const char *bytes)
{
    return std::string(R"({"traceEvents":[{"ph":"X","cat":"kernel","name":"bad )") + bytes + R"(","ts":1,"dur":2}]})";
}

// Escapes, a surrogate pair (U+1F600), "-0", nested values skipped, white space around.
inline constexpr const char *kDecodedTraceEvent =
    R"( {"name":"a\u00e9\ud83d\ude00\/b","ts":-0,"args":{"Input Dims":[[1,2]],"x":{"y":[]}},"pid":"p"} )";
// Keys given twice that the importer does not read.
inline constexpr const char *kRepeatedUnreadKeysEvent = R"({"x":1,"x":2,"args":{"y":1,"y":2}})";

}  // namespace lse::test
