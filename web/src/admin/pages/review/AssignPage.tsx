import { Link } from 'react-router';
import { CompetitionQuestions } from '../../components/CompetitionQuestions.tsx';

/** `review/assign`: the questions of a chosen competition, each opening its judges and assignments. */
export default function AssignPage() {
  return <CompetitionQuestions title="赛题评审" actionWidth={140} actions={(q) => <Link to={`/question/judge/${q.id}`}>评审专家与分配</Link>} />;
}
