// A bare scorer file: the default export is the scorer itself, registered as `units`.
import { createScorer, getAssistantMessageFromRunOutput } from 'agent-scorers';

const TEMPERATURE = /(-?\d+(?:\.\d+)?)(\s*(?:°\s*[CF]\b|degrees?\s+(?:Celsius|Fahrenheit)))?/gi;

export default createScorer({
  id: 'weather-units',
  description: 'Every temperature in the answer carries its unit.',
})
  .preprocess(({ run }) => {
    const text = getAssistantMessageFromRunOutput(run.output) ?? '';
    const numbers = [...text.matchAll(TEMPERATURE)].filter((m) => !/^\s*%/.test(text.slice(m.index! + m[0].length)));
    return { numbers: numbers.length, withUnit: numbers.filter((m) => m[2]).length };
  })
  .generateScore(({ results }) => {
    const { numbers, withUnit } = results.preprocessStepResult;
    return numbers === 0 ? 1 : withUnit / numbers;
  })
  .generateReason(({ results }) => {
    const { numbers, withUnit } = results.preprocessStepResult;
    return `${withUnit} of ${numbers} numbers carry a unit.`;
  });
